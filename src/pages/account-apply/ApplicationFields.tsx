/**
 * The unit, contact and account fields of an enterprise account application, as the correction
 * form of /registerAuditQuery shows them (a new application is the open form register-form), and
 * the body the server takes. Checks as the user types with the validator catalogue; a new password
 * needs strength 3 (the meter of the change-password dialog).
 */
import { Col, Form, Input, Row, Select, Cascader } from 'antd';
import { passwordStrength, PASSWORD_GUIDANCE, SIMPLE_PASSWORD_THRESHOLD } from '../../../validators';
import StrengthMeter from '../../engine/form/StrengthMeter';
import { ApplyFiles, AREA_OPTIONS, required, ruleOf, UNIT_TYPE_OPTIONS, type UploadedFile } from './common';

export interface ApplicationValues {
  orgname: string;
  orgcode: string;
  unitType: string;
  area: string[];
  address: string;
  legalPerson: string;
  legalIdCard: string;
  contact: string;
  contactMobile: string;
  loginName: string;
  password?: string;
  passwordCheck?: string;
  licence?: UploadedFile[];
  smsCode: string;
}

/** The unit, contact and account fields (the correction form of /registerAuditQuery uses them too). */
export function ApplicationFields({ correcting = false }: { correcting?: boolean }) {
  const form = Form.useFormInstance<ApplicationValues>();
  const password = Form.useWatch('password', form);
  return (
    <>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="orgname" label="单位名称" rules={[required('请输入单位名称')]} extra="与营业执照上的名称一致">
            <Input maxLength={200} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="orgcode" label="统一社会信用代码" rules={[required('请输入统一社会信用代码'), ruleOf('unifiedCreditCode')]} validateDebounce={500}>
            <Input maxLength={18} disabled={correcting} onChange={(e) => form.setFieldValue('orgcode', e.target.value.toUpperCase())} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="unitType" label="单位类型" rules={[{ required: true, message: '请选择单位类型' }]}>
            <Select options={UNIT_TYPE_OPTIONS} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="area" label="所在区域" rules={[{ required: true, message: '请选择所在区域' }]}>
            <Cascader options={AREA_OPTIONS} changeOnSelect placeholder="省 / 市 / 区县" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="address" label="详细地址" rules={[required('请输入详细地址')]}>
            <Input maxLength={200} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="legalPerson" label="法定代表人" rules={[required('请输入法定代表人')]}>
            <Input maxLength={50} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="legalIdCard" label="法定代表人身份证号" rules={[required('请输入法定代表人身份证号'), ruleOf('idCard')]} validateDebounce={500}>
            <Input maxLength={18} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="contact" label="联系人" rules={[required('请输入联系人')]}>
            <Input maxLength={50} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="contactMobile" label="联系人手机" rules={[required('请输入联系人手机'), ruleOf('mobile')]} validateDebounce={500} extra="用于接收验证码和审核结果">
            <Input maxLength={11} disabled={correcting} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="loginName" label="登录账号" rules={[required('请输入登录账号'), { pattern: /^[A-Za-z0-9_]{4,30}$/, message: '登录账号为4-30位字母、数字或下划线' }]}>
            <Input maxLength={30} autoComplete="username" />
          </Form.Item>
        </Col>
        <Col span={12} />
        <Col span={12}>
          <Form.Item
            name="password"
            label={correcting ? '新密码（不修改请留空）' : '登录密码'}
            rules={[
              ...(correcting ? [] : [required('请输入登录密码')]),
              ruleOf('password'),
              { validator: (_r, v: string) => (!v || passwordStrength(v) >= SIMPLE_PASSWORD_THRESHOLD ? Promise.resolve() : Promise.reject(new Error('密码强度不足，请至少包含字母、数字和特殊符号中的三类'))) },
            ]}
            extra={<StrengthMeter value={password} />}
            tooltip={PASSWORD_GUIDANCE}
          >
            <Input.Password maxLength={14} autoComplete="new-password" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="passwordCheck"
            label="确认密码"
            dependencies={['password']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_r, v: string) => (getFieldValue('password') && v !== getFieldValue('password') ? Promise.reject(new Error('两次输入的密码不一致')) : Promise.resolve()),
              }),
            ]}
          >
            <Input.Password maxLength={14} autoComplete="new-password" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="licence" label="营业执照" rules={[{ required: true, message: '请上传营业执照' }]} extra="支持 PDF、JPG、PNG，最多5个文件">
            <ApplyFiles />
          </Form.Item>
        </Col>
      </Row>
    </>
  );
}

export const applicationBody = (v: ApplicationValues) => ({
  orgname: v.orgname,
  orgcode: v.orgcode,
  unitType: v.unitType,
  areacode: v.area[v.area.length - 1],
  address: v.address,
  legalPerson: v.legalPerson,
  legalIdCard: v.legalIdCard,
  contact: v.contact,
  contactMobile: v.contactMobile,
  loginName: v.loginName,
  licence: v.licence ?? [],
  ...(v.password ? { password: v.password } : {}),
  smsCode: v.smsCode,
});
