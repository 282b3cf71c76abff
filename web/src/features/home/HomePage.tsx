import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { Button, Card, Col, ConfigProvider, Row, Skeleton, theme, Typography } from 'antd';
import { LayoutOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { homeRefs } from '@coldwatch/contract';
import { toWall } from '../../lib/format';
import { useAuth } from '../../app/auth';
import { useCall } from '../../api/hooks';
import { userName } from '../../lib/seeded';
import { WizardOffer } from '../wizard/WizardOffer';
import { ChartTheme } from './chartTheme';
import { STYLE_LAYOUTS, shownWidgets } from './homeLayout';
import { WIDGETS } from './widgets';
import './home.css';

const CarrierKpis = lazy(() => import('./CarrierWidgets').then((m) => ({ default: m.CarrierKpis })));
const LatestExceptions = lazy(() => import('./ExceptionWidgets').then((m) => ({ default: m.LatestExceptions })));

const waiting = <Card variant="borderless" className="cw-widget"><Skeleton active paragraph={{ rows: 4 }} /></Card>;

/**
 * /home (spec §2): the user's home style and widgets (/homepageset, docs/home.md), the latest five
 * exceptions (spec §9) for whoever may see exceptions. Widgets the user may not see are never shown.
 */
export default function HomePage() {
  const { t } = useTranslation('home');
  const { user, can } = useAuth();
  const setting = useCall(homeRefs.get);
  // The customer's time of day, like every other time on the console (not the browser's).
  const now = toWall(Date.now(), user?.timeZone ?? null);
  const hour = now.hour();
  const greeting = hour < 12 ? 'morning' : hour < 18 ? 'afternoon' : 'evening';
  const style = setting.data?.style ?? 'classic';
  const layout = STYLE_LAYOUTS[style];
  // A failed settings call shows the default home rather than none.
  const widgets = shownWidgets(setting.data?.widgets, (f) => can(f));
  const live = can('viewMonitorPointRealTime');
  // The latest exceptions take the style's first place when shown; the widgets follow them.
  const first = can('viewEx') ? 1 : 0;
  const props = { sensors: setting.data?.sensors ?? [], gateways: can('viewGateway'), sensorsAllowed: can('viewSensor') };

  const page = (
    <div className={`cw-home cw-home-${style}${layout.dark ? ' cw-home-wall' : ''}`} style={{ maxWidth: layout.maxWidth }} data-style={setting.data ? style : undefined}>
      <WizardOffer />
      <div className="cw-home-welcome">
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('greeting.' + greeting, { name: userName(t, user) })}
          </Typography.Title>
          <Typography.Text type="secondary">{t('welcome', { customer: user?.customerName ?? '' })}</Typography.Text>
        </div>
        <div className="cw-home-welcome-side">
          <Typography.Text type="secondary" className="cw-home-date">
            {now.format(t('dateFormat'))}
          </Typography.Text>
          <Link to="/homepageset">
            <Button size="small" icon={<LayoutOutlined />} data-testid="home-customise">
              {t('customise')}
            </Button>
          </Link>
        </div>
      </div>

      {setting.isPending ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <Suspense fallback={null}>
          {layout.kpis && live && <CarrierKpis enabled={live} />}
          <Row gutter={[12, 12]} className="cw-home-row">
            {can('viewEx') && (
              <Col {...layout.span('pendingExceptions', 0)}>
                <Suspense fallback={waiting}>
                  <LatestExceptions />
                </Suspense>
              </Col>
            )}
            {widgets.map((w, i) => {
              const W = WIDGETS[w];
              return (
                <Col key={w} {...layout.span(w, i + first)} data-widget={w}>
                  <Suspense fallback={waiting}>
                    <W {...props} />
                  </Suspense>
                </Col>
              );
            })}
          </Row>
        </Suspense>
      )}
    </div>
  );
  // The wall is dark throughout: antd's dark algorithm for its cards and tables, not CSS overrides.
  return layout.dark ? (
    <ConfigProvider theme={{ algorithm: theme.darkAlgorithm }}>
      <ChartTheme.Provider value="dark">{page}</ChartTheme.Provider>
    </ConfigProvider>
  ) : (
    page
  );
}
