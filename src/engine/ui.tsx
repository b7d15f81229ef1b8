/** Small presentational pieces shared by the screens. */
import { Alert, Button, Card, Skeleton } from 'antd';
import { createContext, useContext, type ReactNode } from 'react';

/** Inside an open page's card (OpenPage), or a dialog, a screen renders without a card of its own. */
const InOpenPage = createContext(false);

/** A screen rendered inside a dialog: without a card of its own (the dialog has the title). */
export const Frameless = ({ children }: { children: ReactNode }) => <InOpenPage.Provider value={true}>{children}</InOpenPage.Provider>;

export function ScreenCard({ title, extra, className, children }: { title?: ReactNode; extra?: ReactNode; className?: string; children: ReactNode }) {
  if (useContext(InOpenPage)) return <div className={className ? `engine-screen ${className}` : 'engine-screen'}>{children}</div>;
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

/**
 * A screen of an open route (no session, no shell): a card centred on the plain sign-in backdrop,
 * `width` at most; the screen inside renders without a card of its own.
 */
export function OpenPage({ title, extra, width, children }: { title: ReactNode; extra?: ReactNode; width: number; children: ReactNode }) {
  return (
    <div className="engine-open-page" style={{ minHeight: '100vh', background: '#f0f2f5', padding: '32px 16px', boxSizing: 'border-box' }}>
      <Card title={title} style={{ maxWidth: width, margin: '0 auto' }} extra={extra}>
        <InOpenPage.Provider value={true}>{children}</InOpenPage.Provider>
      </Card>
    </div>
  );
}
