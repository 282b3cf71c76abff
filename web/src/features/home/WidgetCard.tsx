import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, Card, Empty, Result, Skeleton } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../app/errors';

/** A home widget: title, and the loading, error (with retry) and empty states around its body. */
export function WidgetCard(props: {
  title: ReactNode;
  extra?: ReactNode;
  loading: boolean;
  error: unknown;
  empty?: boolean;
  onRetry: () => void;
  children?: ReactNode;
  minHeight?: number;
  testId?: string;
}) {
  const { t } = useTranslation();
  const { title, extra, loading, error, empty, onRetry, children, minHeight = 260, testId } = props;
  let body: ReactNode = children;
  if (loading) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (error)
    body = (
      <Result
        status="warning"
        className="cw-widget-error"
        title={t('home:widgetError')}
        subTitle={errorMessage(error, t)}
        extra={
          <Button size="small" icon={<ReloadOutlined />} onClick={onRetry}>
            {t('common:action.retry')}
          </Button>
        }
      />
    );
  else if (empty) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common:empty')} />;
  return (
    <Card title={title} extra={extra} variant="borderless" className="cw-widget" styles={{ body: { minHeight } }} data-testid={testId}>
      {body}
    </Card>
  );
}

/** A widget over monitoring rows or sums (useMonitorTable, useCarrierSummary): its states from its query, a link to the page with all. */
export function MonitorWidgetCard(props: { title: ReactNode; to: string; testId: string; list: { isPending: boolean; error: unknown; refetch: () => unknown }; empty: boolean; children: ReactNode }) {
  const { t } = useTranslation('home');
  const { list: q } = props;
  return (
    <WidgetCard title={props.title} extra={<Link to={props.to}>{t('viewAll')}</Link>} loading={q.isPending} error={q.error} empty={props.empty} onRetry={() => void q.refetch()} testId={props.testId}>
      {props.children}
    </WidgetCard>
  );
}
