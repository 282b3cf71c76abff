import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Empty, Input, Modal, Radio, Spin, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { customerRefs, SwitchResult } from '@coldwatch/contract';
import { useAction, useCall } from '../../api/hooks';
import { logout } from '../../app/auth';
import { errorMessage } from '../../app/errors';

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
  const [error, setError] = useState<string>();

  const list = useCall(customerRefs.proxyCustomers, undefined, { enabled: open });
  const current = list.data?.find((c) => c.current)?.id;
  const choose = useAction(customerRefs.switch, {
    success: false,
    onDone: async (code) => {
      // Spec §7: 200 switched, 300 already selected.
      if (code === SwitchResult.ALREADY_SELECTED) {
        void message.info(t('proxy.already'));
        return;
      }
      onClose();
      await logout(qc).catch(() => undefined);
      void message.success({ content: t('proxy.switched'), duration: 4 });
      navigate('/login', { replace: true });
    },
    onFailed: (e) => {
      setError(errorMessage(e, t));
      return true;
    },
  });

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
    setError(undefined);
    await choose.run({ query: { customerId: chosen } });
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
      okButtonProps={{ disabled: !chosen || chosen === current, loading: choose.busy }}
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
