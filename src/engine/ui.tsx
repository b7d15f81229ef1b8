/** Small presentational pieces shared by the screens. */
import { Alert, Button, Card, Skeleton } from 'antd';
import type { ReactNode } from 'react';

export function ScreenCard({ title, extra, className, children }: { title?: ReactNode; extra?: ReactNode; className?: string; children: ReactNode }) {
  return (
    <Card title={title} extra={extra} variant="borderless" className={className ? `engine-screen ${className}` : 'engine-screen'}>
      {children}
    </Card>
  );
}

export const LoadingBlock = ({ rows = 6 }: { rows?: number }) => <Skeleton active paragraph={{ rows }} />;

export function LoadFailed({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  return (
    <Alert
      type="error"
      showIcon
      message="加载失败"
      description={error.message}
      action={
        onRetry && (
          <Button size="small" onClick={onRetry}>
            重试
          </Button>
        )
      }
    />
  );
}
