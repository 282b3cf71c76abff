import { Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { toWall } from '../../lib/format';
import { useAuth } from '../../app/auth';
import { userName } from '../../lib/seeded';
import { CarrierKpis, CarrierStatusWidget } from './CarrierWidgets';
import { DeviceWidget } from './DeviceWidget';
import { ExceptionStatsWidget, LatestExceptions } from './ExceptionWidgets';
import { WizardOffer } from '../wizard/WizardOffer';
import { WorkOrderWidget } from '../workorder/WorkOrderWidget';
import { PassRateWidget } from '../statistic/PassRateWidget';
import './home.css';

/** /home (spec §2): carrier status, bound devices, exception statistics and the latest five exceptions. */
export default function HomePage() {
  const { t } = useTranslation('home');
  const { user, can } = useAuth();
  const live = can('viewMonitorPointRealTime');
  const ex = can('viewEx');
  const sensors = can('viewSensor');
  const gateways = can('viewGateway');
  // The customer's time of day, like every other time on the console (not the browser's).
  const now = toWall(Date.now(), user?.timeZone ?? null);
  const hour = now.hour();
  const greeting = hour < 12 ? 'morning' : hour < 18 ? 'afternoon' : 'evening';

  return (
    <div className="cw-home">
      <WizardOffer />
      <div className="cw-home-welcome">
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t(`greeting.${greeting}`, { name: userName(t, user) })}
          </Typography.Title>
          <Typography.Text type="secondary">{t('welcome', { customer: user?.customerName ?? '' })}</Typography.Text>
        </div>
        <Typography.Text type="secondary" className="cw-home-date">
          {now.format(t('dateFormat'))}
        </Typography.Text>
      </div>

      {live && <CarrierKpis enabled={live} />}

      <Row gutter={[12, 12]} className="cw-home-row">
        {ex && (
          <Col xs={24} xl={14}>
            <LatestExceptions />
          </Col>
        )}
        {ex && (
          <Col xs={24} xl={10}>
            <ExceptionStatsWidget />
          </Col>
        )}
        {live && (
          <Col xs={24} xl={10}>
            <CarrierStatusWidget />
          </Col>
        )}
        {(sensors || gateways) && (
          <Col xs={24} xl={14}>
            <DeviceWidget sensors={sensors} gateways={gateways} />
          </Col>
        )}
        {can('viewWorkOrder') && (
          <Col xs={24} xl={10}>
            <WorkOrderWidget />
          </Col>
        )}
        {can('viewStatistic') && (
          <Col xs={24} xl={10}>
            <PassRateWidget />
          </Col>
        )}
      </Row>
    </div>
  );
}
