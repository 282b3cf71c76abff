import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../app/errors';
import { QrCodeBox } from './QrCodeBox';
import { qrGone, qrStatus, useLoginQr } from './qr';
import './qr.css';

/** Spec §4: the login page polls the code's status every second. */
export const QR_POLL_MS = 1000;

/**
 * 'Scan to log in' on the login page: shows a code and asks every second whether a signed-in
 * mobile client confirmed it; when it did, the server has logged this browser in.
 */
export function QrLoginPanel({ onLoggedIn }: { onLoggedIn: (user?: { locale?: string | null }) => void }) {
  const { t } = useTranslation('login');
  const { qr, loading, error, issue } = useLoginQr();
  const [expired, setExpired] = useState(false);
  const done = useRef(false);

  const load = async (refresh: boolean) => {
    if (await issue(refresh ? qr?.key : undefined)) setExpired(false);
  };

  useEffect(() => {
    void load(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (!qr || expired) return;
    let busy = false;
    const id = setInterval(async () => {
      if (busy || done.current) return;
      if (Date.now() > qr.expiresAt) return setExpired(true);
      busy = true;
      try {
        const s = await qrStatus(qr.key);
        if (s.status === 'expired') setExpired(true);
        else if (s.status === 'confirmed' && !done.current) {
          done.current = true;
          onLoggedIn(s.user ?? undefined);
        }
      } catch (e) {
        // Anything else passes: the next tick asks again, and the code's own expiry ends the polling.
        if (qrGone(e)) setExpired(true);
      } finally {
        busy = false;
      }
    }, QR_POLL_MS);
    return () => clearInterval(id);
  }, [qr, expired, onLoggedIn]);

  return <QrCodeBox qr={qr} loading={loading} expired={expired} error={error ? errorMessage(error, t) : undefined} onRefresh={() => void load(true)} hint={t('qr.loginHint')} />;
}
