/** The detail page's tabs: bound devices, open exceptions (a row opens the exception list), alarm-switch log, operations. */
import { Card, Space, Table, Tabs } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { alarmLogApi, carrierApi, exceptionApi, type Result } from '@coldwatch/contract';
import { PagedTable } from '../../ui';
import { alarmLogColumns, exceptionColumns, gatewayColumns, operationColumns, sensorColumns } from './carrierDetailColumns';

export function CarrierDetailTabs({ id, atom, tz }: { id: number; atom: Result<typeof carrierApi.atom> | undefined; tz: string | null }) {
  const { t } = useTranslation('carrier');
  const navigate = useNavigate();
  return (
    <Card size="small">
      <Tabs
        items={[
          {
            key: 'devices',
            label: t('detail.devices'),
            children: (
              <Space direction="vertical" style={{ width: '100%' }}>
                <Table
                  size="small"
                  rowKey="id"
                  pagination={false}
                  dataSource={atom?.sensors ?? []}
                  scroll={{ x: 700 }}
                  locale={{ emptyText: t('noSensors') }}
                  columns={sensorColumns(t, tz, (v) => navigate(`/historyData?deviceNo=${encodeURIComponent(v)}`))}
                />
                <Table size="small" rowKey="id" pagination={false} dataSource={atom?.gateways ?? []} scroll={{ x: 600 }} locale={{ emptyText: t('detail.noGateways') }} columns={gatewayColumns(t, tz)} />
              </Space>
            ),
          },
          {
            key: 'exceptions',
            label: t('detail.exceptions'),
            children: (
              <PagedTable
                route={exceptionApi.page}
                params={{ carrierId: id, ongoing: 'true' }}
                size="small"
                rowKey="id"
                locale={{ emptyText: t('detail.noOpen') }}
                onRow={() => ({ onClick: () => navigate(`/abnormal/dataex?carrierId=${id}`), style: { cursor: 'pointer' } })}
                columns={exceptionColumns(t, tz)}
              />
            ),
          },
          {
            key: 'alarmLog',
            label: t('detail.alarmLog'),
            children: <PagedTable route={alarmLogApi.page} params={{ carrierId: id }} size="small" rowKey="id" locale={{ emptyText: t('detail.noSwitches') }} columns={alarmLogColumns(t, tz)} />,
          },
          {
            key: 'operateRecord',
            label: t('detail.operateRecord'),
            children: <PagedTable route={carrierApi.operateRecord} params={{ id }} size="small" rowKey="id" locale={{ emptyText: t('detail.noOperations') }} columns={operationColumns(t, tz)} />,
          },
        ]}
      />
    </Card>
  );
}
