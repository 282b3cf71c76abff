import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Empty, Input, Modal, Radio, Spin, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../../api/client';
import { logout } from '../../app/auth';
import { errorMessage } from '../../app/errors';

/** A customer a proxy (agent) user governs. */
export interface ProxyCustomer {
  id: number;
  name: string;
  code?: string;
  /** The proxy user's own customer. */
  own?: boolean;
  /** The customer the session acts for now. */
  current?: boolean;
}

interface MineInfo {
  scope?: { customer_id?: number; customerId?: number; type?: number };
  switchScope?: ProxyCustomer[];
}

/** Answers of GET /service/mine/switch (spec §7): 200 switched, 300 already selected. */
export const SWITCH_OK = 200;
export const SWITCH_ALREADY = 300;

const pick = (raw: unknown): ProxyCustomer[] => {
  const list = Array.isArray(raw) ? raw : Array.isArray((raw as { rows?: unknown[] })?.rows) ? (raw as { rows: unknown[] }).rows : [];
  return list.map((c) => {
    const o = c as Record<string, unknown>;
    return {
      id: Number(o.id ?? o.customerId ?? o.customer_id),
      name: String(o.name ?? o.customerName ?? ''),
      code: (o.code ?? o.customerCode) as string | undefined,
      own: o.own === true,
      current: o.current === true,
    };
  });
};

/**
 * Switch proxy customer (user menu, account type -1 only, spec §6): choose one of the governed
 * customers; after a switch the session ends and the user signs in again.
 */
export function ProxySwitchDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('shell');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<number>();
  const [filter, setFilter] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const info = useQuery({ queryKey: ['mineInfo'], queryFn: () => api.get<MineInfo>('/service/mine/info'), enabled: open });
  const list = useQuery({ queryKey: ['proxyCustomers'], queryFn: async () => pick(await api.get<unknown>('/service/mine/proxyCustomers')), enabled: open });
  const current = list.data?.find((c) => c.current)?.id ?? info.data?.scope?.customer_id ?? info.data?.scope?.customerId;

  useEffect(() => {
    if (open) {
      setChosen(current);
      setError(undefined);
      setFilter('');
    }
  }, [open, current]);

  const customers = (list.data ?? []).filter((c) => !filter || c.name.toLowerCase().includes(filter.toLowerCase()) || c.code?.toLowerCase().includes(filter.toLowerCase()));

  const confirm = async () => {
    if (!chosen) return;
    setBusy(true);
    setError(undefined);
    try {
      const r = await api.get<number | { code?: number; result?: number }>('/service/mine/switch', { customerId: chosen });
      const code = typeof r === 'number' ? r : (r?.code ?? r?.result ?? SWITCH_OK);
      if (code === SWITCH_ALREADY) {
        void message.info(t('proxy.already'));
        return;
      }
      onClose();
      await logout(qc).catch(() => undefined);
      void message.success({ content: t('proxy.switched'), duration: 4 });
      navigate('/login', { replace: true });
    } catch (e) {
      if (e instanceof ApiError && e.code === SWITCH_ALREADY) void message.info(t('proxy.already'));
      else setError(errorMessage(e, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('proxy.title')}
      width={500}
      style={{ top: '8vh' }}
      okText={t('proxy.confirm')}
      onOk={confirm}
      okButtonProps={{ disabled: !chosen || chosen === current, loading: busy }}
      destroyOnHidden
    >
      <Alert type="info" showIcon title={t('proxy.hint')} style={{ marginBottom: 12 }} />
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <Input.Search allowClear placeholder={t('proxy.search')} value={filter} onChange={(e) => setFilter(e.target.value)} style={{ marginBottom: 12 }} />
      {list.isLoading ? (
        <Spin style={{ display: 'block', margin: '24px auto' }} />
      ) : customers.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('proxy.empty')} />
      ) : (
        <Radio.Group value={chosen} onChange={(e) => setChosen(e.target.value)} style={{ width: '100%' }}>
          <div className="cw-proxy-list">
            {customers.map((c) => (
              <Radio key={c.id} value={c.id} className="cw-proxy-item">
                <span>{c.name}</span>
                {c.code && <span className="cw-proxy-code">{c.code}</span>}
                {c.own && <Tag style={{ marginInlineStart: 8 }}>{t('proxy.own')}</Tag>}
                {c.id === current && (
                  <Tag color="blue" style={{ marginInlineStart: c.own ? 0 : 8 }}>
                    {t('proxy.current')}
                  </Tag>
                )}
              </Radio>
            ))}
          </div>
        </Radio.Group>
      )}
    </Modal>
  );
}
