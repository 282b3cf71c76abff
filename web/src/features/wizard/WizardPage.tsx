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
import { type LiveEvent } from '@coldwatch/contract';
import { useAuth } from '../../app/auth';
import { SCENE_TREE_KEY } from '../../ui';
import { useLiveStream } from '../databoard/useLiveStream';
import { fmtValue } from '../../lib/format';
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
  const [first, setFirst] = useState<{ devNo: string; temp?: number | null; hum?: number | null } | undefined>();

  useEffect(() => saveProgress(user?.id, p), [user?.id, p]);
  const update = (next: Partial<WizardProgress>) => setP((cur) => ({ ...cur, ...next }));

  const onEvents = useCallback(
    (events: LiveEvent[]) => {
      for (const e of events) if (e.type === 'reading' && p.devNos.includes(e.data.devNo)) setFirst({ devNo: e.data.devNo, temp: e.data.temp, hum: e.data.hum });
    },
    [p.devNos],
  );
  const stream = useLiveStream(onEvents);

  const restart = () => {
    clearProgress(user?.id);
    setP(EMPTY_PROGRESS);
    setSecret(undefined);
    setFirst(undefined);
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
            {first ? (
              <Alert
                type="success"
                showIcon
                title={t('done.firstReading', { devNo: first.devNo, temp: fmtValue(first.temp), hum: fmtValue(first.hum) })}
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
