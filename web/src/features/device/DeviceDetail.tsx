/**
 * What the device detail pages share (/SensorDetail, /GateWayDetail, /BaseDetail, /DisplayDetail,
 * /RelayDetail; spec §2 hidden routes): the device's id from `?id=`; one answer when there is no
 * id, when the device is not there (or not the caller's), and while it loads; then the page's
 * cards in one column, the first naming the device and listing its facts; and the links from a
 * device to its carrier and its gateway, which the device lists use too.
 */
import type { ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert, Descriptions, Empty, Space, Spin, Typography, type DescriptionsProps } from 'antd';
import { PageCard } from '../../ui';

/** The id of `?id=`; 0 when missing or not a number. */
export function useDetailId() {
  const [params] = useSearchParams();
  return Number(params.get('id')) || 0;
}

export interface DeviceDetailProps<T> {
  id: number;
  /** The detail's query (`useCall`). */
  query: { data?: T; isError: boolean };
  /** Shown without an id, and when the device is not found (from the page's catalogue). */
  noId: string;
  notFound: string;
  /** The page's cards, given the device. */
  children: (device: T) => ReactNode;
}

export function DeviceDetail<T>({ id, query, noId, notFound, children }: DeviceDetailProps<T>) {
  if (!id)
    return (
      <PageCard>
        <Empty description={noId} />
      </PageCard>
    );
  if (query.isError)
    return (
      <PageCard>
        <Alert type="error" showIcon title={notFound} />
      </PageCard>
    );
  if (!query.data) return <Spin style={{ display: 'block', padding: 80 }} />;
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      {children(query.data)}
    </Space>
  );
}

/** The first card: the kind, the device's number (and name), buttons, and its facts. */
export function DeviceCard({ kind, number, name, extra, items }: { kind: string; number: string; name?: string; extra?: ReactNode; items: DescriptionsProps['items'] }) {
  return (
    <PageCard
      title={
        <Space>
          {kind}
          <Typography.Text code>{number}</Typography.Text>
          {name}
        </Space>
      }
      extra={extra}
    >
      <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }} items={items} />
    </PageCard>
  );
}

/** The carrier a device is bound to, as the link that opens it; `unbound` when there is none. */
export function CarrierLink({ id, name, unbound }: { id: number | null; name: string | null; unbound: ReactNode }) {
  const navigate = useNavigate();
  return name ? <Typography.Link onClick={() => navigate(`/carrierDetailPage?id=${id}`)}>{name}</Typography.Link> : <>{unbound}</>;
}

/** The gateway a device reports through, as the link that opens it. */
export function GatewayLink({ id, children }: { id: number; children: ReactNode }) {
  const navigate = useNavigate();
  return <Typography.Link onClick={() => navigate(`/GateWayDetail?id=${id}`)}>{children}</Typography.Link>;
}
