import { useEffect, useState } from 'react';
import { Button, Spin } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { countdown, type LoginQr } from './qr';

export interface QrCodeBoxProps {
  qr: LoginQr | undefined;
  loading?: boolean;
  /** Text over the code once it is no longer usable (expired by time or by the server). */
  expired?: boolean;
  error?: string;
  onRefresh: () => void;
  /** Shown under the code. */
  hint?: string;
}

/** A login QR code with the time left (valid five minutes) and a refresh button. */
export function QrCodeBox({ qr, loading, expired, error, onRefresh, hint }: QrCodeBoxProps) {
  const { t } = useTranslation('login');
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  const left = qr ? qr.expiresAt - now : 0;
  const dead = !!qr && (expired || left <= 0);

  return (
    <div className="cw-qr">
      <div className="cw-qr-frame">
        {qr?.qrcode && <img src={qr.qrcode} alt={t('qr.alt')} className="cw-qr-img" data-testid="login-qr" />}
        {loading && !qr && <Spin />}
        {(dead || (error && !qr)) && (
          <div className="cw-qr-mask">
            <span>{error && !qr ? error : t('qr.expired')}</span>
            <Button type="primary" size="small" icon={<ReloadOutlined />} onClick={onRefresh}>
              {t('qr.refresh')}
            </Button>
          </div>
        )}
      </div>
      {hint && <div className="cw-qr-hint">{hint}</div>}
      <div className="cw-qr-meta">
        {qr && !dead ? <span className="cw-qr-countdown">{t('qr.validFor', { time: countdown(left) })}</span> : <span />}
        <Button type="link" size="small" icon={<ReloadOutlined />} onClick={onRefresh} loading={loading}>
          {t('qr.refresh')}
        </Button>
      </div>
    </div>
  );
}
