/**
 * /wizard: the set-up wizard of spec §1 (user menu "system wizard", "device enrollment"): device
 * access, carrier, zones, device association; then how to point the gateway at the console, and a
 * live wait for its first reading. Each step writes through the normal APIs; the progress is kept
 * so that the wizard can be left and resumed.
 */
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Result, Space, Steps, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { dmApi, type LiveEvent } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { SCENE_TREE_KEY } from '../../ui';
import { useLiveStream } from '../databoard/useLiveStream';
import { fmtValue, formatInZone } from '../../lib/format';
import { AccessStep, AssociateStep, CarrierStep, ConnectPanel } from './WizardSteps';
import { clearProgress, EMPTY_PROGRESS, loadProgress, saveProgress, type WizardProgress } from './wizardState';

export default function WizardPage() {
  const { t } = useTranslation('wizard');
  const { user } = useAuth();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [p, setP] = useState<WizardProgress>(() => loadProgress(user?.id));
  const [secret, setSecret] = useState<string | undefined>();

  useEffect(() => saveProgress(user?.id, p), [user?.id, p]);
  const update = (next: Partial<WizardProgress>) => setP((cur) => ({ ...cur, ...next }));

  // The point as the server judges it: a wizard reopened after its sensor has reported shows that
  // reading, and a reading outside the carrier's zone is said to be so rather than greeted in green.
  const point = useCall(dmApi.mpDetail, { query: { carrierId: p.carrierId ?? 0 } }, { enabled: p.step === 4 && !!p.carrierId });
  const { refetch } = point;
  const latest = point.data?.sensors.filter((s) => p.devNos.includes(s.devNo) && s.lastTs !== null).sort((a, b) => (b.lastTs ?? 0) - (a.lastTs ?? 0))[0];

  const onEvents = useCallback(
    (events: LiveEvent[]) => {
      if (events.some((e) => e.type === 'reading' && p.devNos.includes(e.data.devNo))) void refetch();
    },
    [p.devNos, refetch],
  );
  const stream = useLiveStream(onEvents);

  const restart = () => {
    clearProgress(user?.id);
    setP(EMPTY_PROGRESS);
    setSecret(undefined);
  };

  const steps = [t('step.access'), t('step.carrier'), t('step.zones'), t('step.associate')];

  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <Card>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {t('title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
        <Steps current={p.step} items={steps.map((title) => ({ title }))} responsive size="small" />
      </Card>
      <Card>
        {p.step === 0 && (
          <AccessStep
            progress={p}
            onDone={(r) => {
              if (r.secret) setSecret(r.secret);
              update({ gatewayId: r.gatewayId, gatewaySn: r.gatewaySn, sensorIds: r.sensorIds, devNos: r.devNos, step: 1 });
            }}
          />
        )}
        {(p.step === 1 || p.step === 2) && (
          <CarrierStep
            progress={p}
            zones={p.step === 2}
            onBack={() => update({ step: p.step - 1 })}
            onDone={(carrierId) => {
              void qc.invalidateQueries({ queryKey: SCENE_TREE_KEY });
              update({ carrierId, step: p.step + 1 });
            }}
          />
        )}
        {p.step === 3 && <AssociateStep progress={p} onBack={() => update({ step: 2 })} onDone={() => update({ step: 4 })} />}
        {p.step === 4 && (
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <Result status="success" title={t('done.title')} subTitle={t('done.subtitle')} style={{ padding: '8px 0' }} />
            <ConnectPanel sn={p.gatewaySn} secret={secret} gatewayId={p.gatewayId} onSecret={setSecret} />
            {latest ? (
              <Alert
                type={latest.inRange ? 'success' : 'warning'}
                showIcon
                title={t('done.reading', { devNo: latest.devNo, time: formatInZone(latest.lastTs, user?.timeZone), temp: fmtValue(latest.temp), hum: fmtValue(latest.hum) })}
                description={latest.inRange ? undefined : t('done.outOfZone')}
                action={
                  <Button type="primary" onClick={() => navigate(`/carrierDetailPage?id=${p.carrierId}`)}>
                    {t('done.openCarrier')}
                  </Button>
                }
              />
            ) : (
              <Alert type="info" showIcon title={stream === 'connected' ? t('done.waiting', { devNos: p.devNos.join(', ') }) : t('done.connecting')} />
            )}
            <Space wrap>
              <Button onClick={() => navigate('/databoard/deviceMonitor')}>{t('done.board')}</Button>
              <Button
                onClick={() => {
                  restart();
                  void message.info(t('done.again'));
                }}
              >
                {t('done.another')}
              </Button>
            </Space>
          </Space>
        )}
      </Card>
      {p.step > 0 && p.step < 4 && (
        <Button type="link" onClick={restart}>
          {t('restart')}
        </Button>
      )}
    </Space>
  );
}
