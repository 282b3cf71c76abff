import { Link } from 'react-router';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { WORK_ORDER_STATUS, workOrderRefs } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { WidgetCard } from '../home/WidgetCard';
import { STATUS_COLOR } from './labels';

const OPEN: number[] = [WORK_ORDER_STATUS.pending, WORK_ORDER_STATUS.accepted, WORK_ORDER_STATUS.done, WORK_ORDER_STATUS.confirmed];

/** The home page's work orders: those waiting for the caller's side, and the open ones by state, each a link to the list filtered. */
export function WorkOrderWidget() {
  const { t } = useTranslation('workOrder');
  const q = useCall(workOrderRefs.counts, {}, { refetchInterval: 60_000 });
  const d = q.data;
  const open = d ? OPEN.reduce((n, s) => n + (d.byStatus[String(s)] ?? 0), 0) : 0;
  return (
    <WidgetCard title={t('home.title')} loading={q.isPending} error={q.error} onRetry={() => void q.refetch()} minHeight={120} testId="home-work-orders" extra={<Link to="/order/workOrder">{t('action.open')}</Link>}>
      {d && (
        <div style={{ display: 'flex', flexDirection: 'column', gap: 10 }}>
          <div>
            <span style={{ fontSize: 28, fontWeight: 600, color: d.waiting ? '#fa8c16' : undefined }} data-testid="work-orders-waiting">
              {d.waiting}
            </span>{' '}
            <span style={{ color: '#595959' }}>{t(`home.waiting.${d.side}`)}</span>
          </div>
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: 6 }}>
            {open === 0 ? (
              <span style={{ color: '#8c8c8c' }}>{t('home.none')}</span>
            ) : (
              OPEN.filter((s) => d.byStatus[String(s)]).map((s) => (
                <Tag key={s} color={STATUS_COLOR[s]}>
                  {t(`status.${s}`)} {d.byStatus[String(s)]}
                </Tag>
              ))
            )}
          </div>
        </div>
      )}
    </WidgetCard>
  );
}
