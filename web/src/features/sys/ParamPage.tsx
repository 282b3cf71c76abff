/**
 * /sys/paramsetup: the server-side parameters of spec §3 (`paramApi.list`, `paramApi.update`):
 * single session (a new login ends the account's other sessions, spec §8 500104), the login
 * verification (picture code always, or after so many wrong passwords; its validity), the
 * monitoring views' auto-refresh, the default transmission intervals of new sensors, displays and
 * relays, the labels a printed sheet holds, and how long
 * sensor history (the spec's "data retention time" too: docs/compliance.md), logs, backups, export files and cache are kept (enforced by the retention job,
 * /sys/scheduled; records at least 5 years unless the console runs "not for GxP records"), and
 * the tile URL of the monitor map. The rules are the contract's PARAMS; saving needs editParam, without it the
 * values are shown read-only.
 */
import { useEffect, useState } from 'react';
import { Alert, App, Button, Descriptions, Grid, Input, InputNumber, Skeleton, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PARAMS, paramApi, recordRetentionRefusal, type ParamKey } from '@coldwatch/contract';
import { useServerMessages } from '../../app/serverMessages';
import { useAuth } from '../../app/auth';
import { useAction, useCall } from '../../api/hooks';
import { PageCard } from '../../ui';

/** The numeric parameters, in the order the page shows them. */
const DAYS = [
  'sensor_history_retention_days',
  'log_retention_days',
  'backup_retention_years',
  'export_retention_days',
  'cache_retention_days',
  'sensor_config_timeout_minutes',
  'gateway_heartbeat_history_days',
  'gps_history_retention_days',
  'trip_stay_radius_m',
  'trip_stay_minutes',
  'verification_validity_minutes',
  'login_verification_after',
  'monitor_refresh_seconds',
  'fault_tolerance_coefficient',
  'sensor_interval_seconds',
  'display_interval_seconds',
  'relay_interval_seconds',
  'alarm_volume',
  'alarm_count',
  'labels_per_page',
] as const satisfies readonly ParamKey[];
const unitOf = (k: ParamKey) =>
  k.endsWith('_minutes') ? 'minutes' : k.endsWith('_seconds') ? 'seconds' : k.endsWith('_years') ? 'years' : k.endsWith('_m') ? 'metres' : k.endsWith('_after') ? 'times' : k.endsWith('_coefficient') ? 'reports' : k === 'alarm_volume' ? 'percent' : k === 'alarm_count' ? 'beeps' : k === 'labels_per_page' ? 'labels' : 'unit';
/** The on/off parameters: key, catalogue key of their label and hint, test id. */
const SWITCHES = [
  { key: 'single_session', label: 'singleSession', testId: 'param-single-session' },
  { key: 'gateway_heartbeat_history', label: 'heartbeatHistory', testId: 'param-heartbeat-history' },
  { key: 'login_verification', label: 'loginVerification', testId: 'param-login-verification' },
] as const satisfies readonly { key: ParamKey; label: string; testId: string }[];
type Values = Record<ParamKey, string>;

export default function ParamPage() {
  const { t } = useTranslation('param');
  const serverText = useServerMessages();
  const { can } = useAuth();
  const { message } = App.useApp();
  const canEdit = can('editParam');
  // On a phone the labels go above the values: two columns do not fit 390 px.
  const wide = Grid.useBreakpoint().md ?? true;
  const saved = useCall(paramApi.list);
  const [values, setValues] = useState<Values | null>(null);
  const update = useAction(paramApi.update, { success: false, invalidates: [paramApi.list] });

  useEffect(() => {
    if (saved.data) setValues(saved.data);
  }, [saved.data]);

  const gxpRecords = saved.data?.gxpRecords ?? true;
  /** Why a value is refused: its own rule, then the records' retention rule (the server checks both again). */
  const refusal = (k: ParamKey) => (!values ? undefined : !PARAMS[k].valid(values[k]) ? PARAMS[k].error : recordRetentionRefusal(k, values[k], values, gxpRecords));
  const valid = (k: ParamKey) => !!values && !refusal(k);
  const changes = values && saved.data ? (Object.keys(PARAMS) as ParamKey[]).filter((k) => values[k] !== saved.data[k]) : [];
  const allValid = (Object.keys(PARAMS) as ParamKey[]).every(valid);
  const set = (k: ParamKey, v: string) => setValues((cur) => (cur ? { ...cur, [k]: v } : cur));

  const save = async () => {
    if (!values) return;
    for (const key of changes) if ((await update.run({ body: { key, value: values[key] } })) === undefined) return;
    void message.success(t('saved'));
  };

  return (
    <PageCard title={t('title')}>
      {!values ? (
        <Skeleton active />
      ) : (
        <Space direction="vertical" size="large" style={{ maxWidth: 760, width: '100%' }}>
          {gxpRecords ? (
            <Alert type="info" showIcon message={t('gxp.on.title')} description={t('gxp.on.text')} data-testid="param-gxp" />
          ) : (
            <Alert type="warning" showIcon message={t('gxp.off.title')} description={t('gxp.off.text')} data-testid="param-gxp" />
          )}
          <Descriptions column={1} bordered size="middle" layout={wide ? 'horizontal' : 'vertical'} styles={wide ? { label: { width: 260 } } : undefined}>
            {SWITCHES.map((w) => (
              <Descriptions.Item key={w.key} label={t(`${w.label}.label`)}>
                <Space direction="vertical" size={4}>
                  <Switch
                    checked={values[w.key] === 'on'}
                    disabled={!canEdit}
                    onChange={(on) => set(w.key, on ? 'on' : 'off')}
                    checkedChildren={t('on')}
                    unCheckedChildren={t('off')}
                    data-testid={w.testId}
                  />
                  <Typography.Text type="secondary">{t(`${w.label}.hint`)}</Typography.Text>
                </Space>
              </Descriptions.Item>
            ))}
            {DAYS.map((k) => (
              <Descriptions.Item key={k} label={t(`days.${k}.label`)}>
                <Space direction="vertical" size={4}>
                  <Space>
                    <InputNumber
                      precision={0}
                      value={values[k] === '' ? null : Number(values[k])}
                      disabled={!canEdit}
                      onChange={(v) => set(k, v === null ? '' : String(v))}
                      status={valid(k) ? undefined : 'error'}
                      style={{ width: 140 }}
                      data-testid={`param-${k}`}
                    />
                    <span style={{ whiteSpace: 'nowrap' }}>{t(unitOf(k))}</span>
                  </Space>
                  <Typography.Text type={valid(k) ? 'secondary' : 'danger'} data-testid={`param-${k}-hint`}>
                    {valid(k) ? t(`days.${k}.hint`) : serverText(refusal(k)!)}
                  </Typography.Text>
                </Space>
              </Descriptions.Item>
            ))}
            <Descriptions.Item label={t('tileUrl.label')}>
              <Space direction="vertical" size={4} style={{ width: '100%' }}>
                <Input
                  value={values.map_tile_url}
                  disabled={!canEdit}
                  allowClear
                  placeholder="https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png"
                  onChange={(e) => set('map_tile_url', e.target.value)}
                  status={valid('map_tile_url') ? undefined : 'error'}
                  data-testid="param-map_tile_url"
                />
                <Typography.Text type={valid('map_tile_url') ? 'secondary' : 'danger'}>
                  {valid('map_tile_url') ? t('tileUrl.hint') : serverText(PARAMS.map_tile_url.error)}
                </Typography.Text>
              </Space>
            </Descriptions.Item>
          </Descriptions>
          {canEdit && (
            <Space>
              <Button type="primary" onClick={() => void save()} loading={update.busy} disabled={!changes.length || !allValid} data-testid="param-save">
                {t('save')}
              </Button>
              <Button onClick={() => saved.data && setValues(saved.data)} disabled={update.busy}>
                {t('reset')}
              </Button>
            </Space>
          )}
        </Space>
      )}
      <Catalogues />
    </PageCard>
  );
}

/** The platform's catalogues live on pages without a menu entry (spec §2 hidden routes): reached from here. */
function Catalogues() {
  const { t } = useTranslation('param');
  const { can } = useAuth();
  const navigate = useNavigate();
  const links = [
    { path: '/sys/unitMeasurement', func: 'viewProbeUnit', key: 'shell:page.unitMeasurement' },
    { path: '/sys/deviceType', func: 'viewType', key: 'shell:page.deviceType' },
    { path: '/sys/carrierType', func: 'viewType', key: 'shell:page.carrierType' },
  ].filter((l) => can(l.func));
  if (!links.length) return null;
  return (
    <div style={{ marginTop: 24 }}>
      <Space wrap>
        <Typography.Text strong>{t('catalogues')}</Typography.Text>
        {links.map((l) => (
          <Button key={l.path} type="link" onClick={() => navigate(l.path)}>
            {t(l.key)}
          </Button>
        ))}
      </Space>
    </div>
  );
}
