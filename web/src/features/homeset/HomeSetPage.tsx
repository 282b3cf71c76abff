/**
 * /homepageset (spec §2 "Home settings"; docs/home.md): the user's home style, its widgets in
 * their order and the sensors of the "specified sensor records" widget, kept on the server
 * (homeRefs). Only widgets whose function the user holds are offered; the server checks again.
 */
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Skeleton, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { homeRefs, type HomeStyle, type HomeWidget } from '@coldwatch/contract';
import { useAction, useCall } from '../../api/hooks';
import { PageCard } from '../../ui';
import { StylePicker } from './StylePicker';
import { WidgetPicker } from './WidgetPicker';
import { SensorPicker } from './SensorPicker';
import './homeset.css';

export default function HomeSetPage() {
  const { t } = useTranslation('homeset');
  const navigate = useNavigate();
  const saved = useCall(homeRefs.get);
  const [style, setStyle] = useState<HomeStyle>('classic');
  const [widgets, setWidgets] = useState<HomeWidget[]>([]);
  const [sensors, setSensors] = useState<string[]>([]);
  const save = useAction(homeRefs.set, { invalidates: [homeRefs.get] });

  useEffect(() => {
    if (!saved.data) return;
    setStyle(saved.data.style);
    setWidgets(saved.data.widgets);
    setSensors(saved.data.sensors.map((s) => s.devNo));
  }, [saved.data]);
  const known = useMemo(() => new Map((saved.data?.sensors ?? []).map((s) => [s.devNo, s.carrierName])), [saved.data]);
  const withSensors = widgets.includes('sensorRecords');

  const submit = async () => {
    const r = await save.run({ body: { style, widgets, sensors: withSensors ? sensors : [] } });
    if (r !== undefined) navigate('/home');
  };

  return (
    <PageCard title={t('title')}>
      {!saved.data ? (
        <Skeleton active />
      ) : (
        <Space direction="vertical" size="large" style={{ width: '100%' }} className="cw-homeset">
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {t('intro')}
          </Typography.Paragraph>
          <section>
            <Typography.Title level={5}>{t('style.title')}</Typography.Title>
            <StylePicker value={style} onChange={setStyle} />
          </section>
          <section>
            <Typography.Title level={5}>{t('widgets.title')}</Typography.Title>
            <Typography.Paragraph type="secondary">{t('widgets.hint')}</Typography.Paragraph>
            <WidgetPicker offered={saved.data.offered} value={widgets} onChange={setWidgets} />
            {widgets.length === 0 && <Alert type="warning" showIcon style={{ marginTop: 8 }} title={t('widgets.none')} />}
          </section>
          {withSensors && (
            <section>
              <Typography.Title level={5}>{t('sensors.title')}</Typography.Title>
              <Typography.Paragraph type="secondary">{t('sensors.hint')}</Typography.Paragraph>
              <SensorPicker value={sensors} known={known} onChange={setSensors} />
            </section>
          )}
          <Space wrap>
            <Button type="primary" onClick={() => void submit()} loading={save.busy} disabled={widgets.length === 0} data-testid="home-settings-save">
              {t('save')}
            </Button>
            <Button onClick={() => navigate('/home')}>{t('cancel')}</Button>
          </Space>
        </Space>
      )}
    </PageCard>
  );
}
