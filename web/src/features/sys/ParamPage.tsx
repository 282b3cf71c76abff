/**
 * /sys/paramsetup: the server-side parameters (`GET /service/share/param`, `PUT /service/param/update`):
 * single session (a new login ends the account's other sessions, spec §8 500104) and how long sensor
 * history is kept. Saving needs editParam; without it the values are shown read-only.
 */
import { useCallback, useEffect, useState } from 'react';
import { App, Button, Descriptions, InputNumber, Skeleton, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { api } from '../../api/client';
import { PageCard, useApiErrorToast } from '../../ui';

interface Params {
  single_session: string;
  sensor_history_retention_days: string;
  editable?: boolean;
}

const SINGLE = 'single_session';
const RETENTION = 'sensor_history_retention_days';

export default function ParamPage() {
  const { t } = useTranslation('param');
  const { can } = useAuth();
  const { message } = App.useApp();
  const toastError = useApiErrorToast();
  const [saved, setSaved] = useState<Params | null>(null);
  const [single, setSingle] = useState(false);
  const [days, setDays] = useState<number | null>(365);
  const [saving, setSaving] = useState(false);
  const canEdit = can('editParam');

  const load = useCallback(async () => {
    try {
      const p = await api.get<Params>('/service/share/param');
      setSaved(p);
      setSingle(p[SINGLE] === 'on');
      setDays(Number(p[RETENTION]));
    } catch (e) {
      toastError(e);
    }
  }, [toastError]);

  useEffect(() => {
    void load();
  }, [load]);

  const validDays = days !== null && Number.isInteger(days) && days >= 1 && days <= 3650;
  const changes: [string, string][] = [];
  if (saved) {
    if ((single ? 'on' : 'off') !== saved[SINGLE]) changes.push([SINGLE, single ? 'on' : 'off']);
    if (validDays && String(days) !== saved[RETENTION]) changes.push([RETENTION, String(days)]);
  }

  const save = async () => {
    setSaving(true);
    try {
      for (const [key, value] of changes) await api.put('/service/param/update', { key, value });
      void message.success(t('saved'));
      await load();
    } catch (e) {
      toastError(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <PageCard title={t('title')}>
      {!saved ? (
        <Skeleton active />
      ) : (
        <Space direction="vertical" size="large" style={{ maxWidth: 720, width: '100%' }}>
          <Descriptions column={1} bordered size="middle" styles={{ label: { width: 240 } }}>
            <Descriptions.Item label={t('singleSession.label')}>
              <Space direction="vertical" size={4}>
                <Switch
                  checked={single}
                  disabled={!canEdit}
                  onChange={setSingle}
                  checkedChildren={t('on')}
                  unCheckedChildren={t('off')}
                  data-testid="param-single-session"
                />
                <Typography.Text type="secondary">{t('singleSession.hint')}</Typography.Text>
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label={t('retention.label')}>
              <Space direction="vertical" size={4}>
                <Space>
                  <InputNumber
                    precision={0}
                    value={days}
                    disabled={!canEdit}
                    onChange={(v) => setDays(v)}
                    status={validDays ? undefined : 'error'}
                    style={{ width: 140 }}
                    data-testid="param-retention"
                  />
                  <span>{t('retention.unit')}</span>
                </Space>
                <Typography.Text type={validDays ? 'secondary' : 'danger'}>{validDays ? t('retention.hint') : t('retention.invalid')}</Typography.Text>
              </Space>
            </Descriptions.Item>
          </Descriptions>
          {canEdit && (
            <Space>
              <Button type="primary" onClick={save} loading={saving} disabled={!changes.length || !validDays} data-testid="param-save">
                {t('save')}
              </Button>
              <Button onClick={() => void load()} disabled={saving}>
                {t('reset')}
              </Button>
            </Space>
          )}
        </Space>
      )}
    </PageCard>
  );
}
