import { useEffect, useState } from 'react';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../app/errors';
import { QrCodeBox } from './QrCodeBox';
import { getLoginQr, refreshLoginQr, type LoginQr } from './qr';
import './qr.css';

/** User menu → login QR code (spec §2): scan with the mini-app within five minutes; refresh gets a new code. */
export function LoginQrDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('login');
  const [qr, setQr] = useState<LoginQr>();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();

  const load = async (refresh: boolean) => {
    setLoading(true);
    setError(undefined);
    try {
      setQr(refresh ? await refreshLoginQr(qr?.key) : await getLoginQr());
    } catch (e) {
      setError(errorMessage(e, t));
    } finally {
      setLoading(false);
    }
  };

  useEffect(() => {
    if (open) void load(false);
    else setQr(undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('qr.dialogTitle')} width={380} style={{ top: '8vh' }} destroyOnHidden>
      <QrCodeBox qr={qr} loading={loading} error={error} onRefresh={() => void load(true)} hint={t('qr.dialogHint')} />
    </Modal>
  );
}
