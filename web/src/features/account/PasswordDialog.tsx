import { useState } from 'react';
import { Alert, Button, Modal, Space, Typography } from 'antd';
import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** Shows a temporary password once (after a reset or a create without password), with a copy button. */
export function PasswordDialog({ shown, onClose }: { shown: { account: string; password: string; created?: boolean } | null; onClose: () => void }) {
  const { t } = useTranslation('account');
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!shown) return;
    try {
      await navigator.clipboard.writeText(shown.password);
    } catch {
      // Clipboard API unavailable (plain http): select the text instead.
      const el = document.getElementById('cw-temp-password');
      if (el) window.getSelection()?.selectAllChildren(el);
      document.execCommand?.('copy');
    }
    setCopied(true);
  };
  return (
    <Modal
      open={!!shown}
      title={t('user.reset.title')}
      width={460}
      style={{ top: '8vh' }}
      onCancel={() => {
        setCopied(false);
        onClose();
      }}
      maskClosable={false}
      footer={
        <Button
          type="primary"
          onClick={() => {
            setCopied(false);
            onClose();
          }}
        >
          {t('user.reset.close')}
        </Button>
      }
      destroyOnHidden
    >
      {shown && (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Alert type="success" showIcon title={shown.created ? t('user.reset.created') : t('user.reset.success')} />
          <Typography.Text type="secondary">{t('user.reset.text', { account: shown.account })}</Typography.Text>
          <Space.Compact style={{ width: '100%' }}>
            <div
              id="cw-temp-password"
              style={{
                flex: 1,
                fontFamily: 'ui-monospace, monospace',
                fontSize: 18,
                letterSpacing: 1,
                padding: '4px 12px',
                border: '1px solid #d9d9d9',
                borderRadius: '6px 0 0 6px',
                background: '#fafafa',
                userSelect: 'all',
              }}
            >
              {shown.password}
            </div>
            <Button icon={copied ? <CheckOutlined /> : <CopyOutlined />} onClick={() => void copy()} style={{ height: 'auto' }}>
              {copied ? t('user.reset.copied') : t('user.reset.copy')}
            </Button>
          </Space.Compact>
        </Space>
      )}
    </Modal>
  );
}
