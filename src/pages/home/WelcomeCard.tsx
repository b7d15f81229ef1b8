import { Card, Descriptions, Skeleton, Tag } from 'antd';
import { useUnit } from '../../app/queries';
import { useSession } from '../../app/session';
import { hourIn } from '../../shared/dates';

function greeting(hour: number): string {
  if (hour < 6) return '凌晨好';
  if (hour < 12) return '上午好';
  if (hour < 14) return '中午好';
  if (hour < 18) return '下午好';
  return '晚上好';
}

/** Greeting (by the hour in China, as the portal's dates) with the user's role and the unit's registration facts (GET unit). */
export default function WelcomeCard() {
  const { user, role } = useSession();
  const { data: unit, isLoading } = useUnit();

  return (
    <Card variant="borderless" className="home__welcome">
      <div className="home__greeting">
        <div>
          <h2>
            {greeting(hourIn())}，{user?.name ?? ''}
          </h2>
          <p>欢迎使用特种设备企业服务平台，祝您工作顺利！</p>
        </div>
        <div className="home__tags">
          {role && <Tag color="blue">{role.name}</Tag>}
          {user?.basicUnitFlag === 1 && <Tag color="gold">子账号</Tag>}
        </div>
      </div>
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 2 }} title={false} />
      ) : (
        unit && (
          <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} className="home__unit">
            <Descriptions.Item label="单位名称">{unit.orgname}</Descriptions.Item>
            <Descriptions.Item label="统一社会信用代码">{unit.orgcode}</Descriptions.Item>
            <Descriptions.Item label="区划代码">{unit.areacode}</Descriptions.Item>
            <Descriptions.Item label="单位地址">{unit.address || '—'}</Descriptions.Item>
            <Descriptions.Item label="联系人">{unit.contact || '—'}</Descriptions.Item>
            <Descriptions.Item label="联系电话">{unit.contactPhone || '—'}</Descriptions.Item>
          </Descriptions>
        )
      )}
    </Card>
  );
}
