import { Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { useAuth } from '../../app/auth';
import { userName } from '../../lib/seeded';
import { CarrierKpis, CarrierStatusWidget } from './CarrierWidgets';
import { DeviceWidget } from './DeviceWidget';
import { ExceptionStatsWidget, LatestExceptions } from './ExceptionWidgets';
import { WizardOffer } from '../wizard/WizardOffer';
import './home.css';

/** /home (spec §2): carrier status, bound devices, exception statistics and the latest five exceptions. */
export default function HomePage() {
  const { t } = useTranslation('home');
  const { user, can } = useAuth();
  const live = can('viewMonitorPointRealTime');
  const ex = can('viewEx');
  const sensors = can('viewSensor');
  const gateways = can('viewGateway');
  const hour = dayjs().hour();
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
          {dayjs().format(t('dateFormat'))}
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
      </Row>
    </div>
  );
}
