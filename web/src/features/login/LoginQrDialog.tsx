import { useEffect } from 'react';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../app/errors';
import { QrCodeBox } from './QrCodeBox';
import { useLoginQr } from './qr';
import './qr.css';

/** User menu → login QR code (spec §2): scan with the mini-app within five minutes; refresh gets a new code. */
export function LoginQrDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('login');
  const { qr, loading, error, issue, reset } = useLoginQr();

  useEffect(() => {
    if (open) void issue();
    else reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('qr.dialogTitle')} width={380} style={{ top: '8vh' }} destroyOnHidden>
      <QrCodeBox qr={qr} loading={loading} error={error ? errorMessage(error, t) : undefined} onRefresh={() => void issue(qr?.key)} hint={t('qr.dialogHint')} />
    </Modal>
  );
}
