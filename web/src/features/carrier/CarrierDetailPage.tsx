/**
 * /carrierDetailPage?id=: one monitoring point (spec §2 hidden detail route): live values by
 * its sample mode, today's chart, zones, bound devices and their states, open exceptions, the
 * alarm switch with its log.
 */
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert, Button, Card, Col, Empty, Row, Select, Space, Spin } from 'antd';
import { EditOutlined, LineChartOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { isClimateSensor } from '@coldwatch/contract';
import { useAuth } from '../../app/auth';
import { PageCard } from '../../ui';
import { CarrierCard } from '../databoard/CarrierCard';
import { DayChart } from '../history/DayChart';
import { CarrierDetailTabs } from './CarrierDetailTabs';
import { CarrierDialog } from './CarrierDialog';
import { CarrierSummary } from './CarrierSummary';
import { useCarrierLive } from './useCarrierLive';
import '../databoard/monitor.css';

export default function CarrierDetailPage() {
  const { t } = useTranslation('carrier');
  const { can, user } = useAuth();
  const navigate = useNavigate();
  const tz = user?.timeZone ?? null;
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const { atom, carrier: c } = useCarrierLive(id);
  const [editing, setEditing] = useState(false);
  const [chartDev, setChartDev] = useState<string | undefined>();

  const sensors = useMemo(() => c?.sensors ?? [], [c]);
  const climate = sensors.filter((s) => isClimateSensor(s.type));
  const devNo = chartDev ?? climate[0]?.devNo;

  if (!id) return <PageCard><Empty description={t('detail.noId')} /></PageCard>;
  if (atom.isError) return <PageCard><Alert type="error" showIcon title={t('detail.notFound')} /></PageCard>;
  if (!c) return <Spin style={{ display: 'block', padding: 80 }} />;

  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <CarrierSummary
        c={c}
        editable={can('editCarrier')}
        onChanged={() => void atom.refetch()}
        extra={
          <Space wrap>
            {devNo && (
              // The carrier's own value (its sample mode over its sensors); its sensors are in the picker there.
              <Button icon={<LineChartOutlined />} onClick={() => navigate(`/historyData?carrierId=${c.id}`)}>
                {t('action.history')}
              </Button>
            )}
            {can('editCarrier') && (
              <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
                {t('action.edit')}
              </Button>
            )}
          </Space>
        }
      />

      <Row gutter={[12, 12]}>
        <Col xs={24} lg={9}>
          <CarrierCard carrier={c} timeZone={tz} onSensor={(s) => setChartDev(s.devNo)} />
        </Col>
        <Col xs={24} lg={15}>
          <Card
            size="small"
            title={t('detail.today')}
            extra={
              climate.length > 1 && (
                <Select size="small" style={{ width: 180 }} value={devNo} onChange={setChartDev} options={climate.map((s) => ({ value: s.devNo, label: s.devNo }))} aria-label={t('detail.chartDevice')} />
              )
            }
          >
            {devNo ? <DayChart deviceNo={devNo} timeZone={tz} /> : <Empty description={t('noSensors')} />}
          </Card>
        </Col>
      </Row>

      <CarrierDetailTabs id={id} atom={atom.data} tz={tz} />
      {editing && <CarrierDialog target={c} onClose={() => setEditing(false)} onDone={() => void atom.refetch()} />}
    </Space>
  );
}
