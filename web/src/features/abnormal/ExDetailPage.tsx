/**
 * /exDetail (spec §2, no sign-in): one exception opened from the alarm e-mail or a copied link
 * (`?token=`, signed and valid 7 days; docs/alarms.md "The /exDetail link"). It shows that
 * exception, its values, its signed steps and how many notices it caused, read only; an
 * expired or altered link says so and offers the sign-in.
 */
import { useSearchParams } from 'react-router';
import { Alert, Button, Card, Result, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { exceptionRefs } from '@coldwatch/contract';
import { useQuietCall } from '../../api/hooks';
import { errorMessage } from '../../app/errors';
import { LogoMark } from '../../ui/Logo';
import { formatInZone } from '../../lib/format';
import { ExceptionFacts } from './ExceptionFacts';
import { HandlingSteps } from './HandlingSteps';

export default function ExDetailPage() {
  const { t } = useTranslation('abnormal');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  // Quiet: a 401 here is the link's, not a session's, and must not send the reader to the login page.
  const q = useQuietCall(exceptionRefs.shared, { query: { token } }, { retry: false, enabled: !!token });
  const d = q.data;

  return (
    <div style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', background: '#f1f4f9', padding: '24px 16px' }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 10, marginBottom: 16 }}>
        <LogoMark size={28} />
        <span style={{ fontSize: 18, fontWeight: 600, color: '#0b1b33' }}>{t('common:product')}</span>
      </div>
      <Card title={t('exDetail.title')} style={{ width: 'min(820px, 100%)' }} data-testid="ex-detail-card">
        {!token || q.isError ? (
          <Result
            status="warning"
            title={t('exDetail.failed')}
            subTitle={token ? errorMessage(q.error, t) : errorMessage(null, t)}
            extra={
              <Button type="primary" href="/login">
                {t('exDetail.signIn')}
              </Button>
            }
          />
        ) : !d ? (
          <Spin tip={t('exDetail.loading')}>
            <div style={{ height: 120 }} />
          </Spin>
        ) : (
          <>
            <Alert type="info" showIcon title={t('exDetail.expires', { time: formatInZone(d.expiresAt, d.timeZone, 'YYYY-MM-DD HH:mm') })} style={{ marginBottom: 16 }} />
            <ExceptionFacts ex={d} timeZone={d.timeZone} noticeCount={d.noticeCount} />
            <Typography.Title level={5} style={{ marginTop: 20 }}>
              {t('detail.steps')}
            </Typography.Title>
            <HandlingSteps steps={d.steps} signatures={d.signatures} timeZone={d.timeZone} />
            <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
              {t('exDetail.readOnly')} <a href="/login">{t('exDetail.signIn')}</a>
            </Typography.Paragraph>
          </>
        )}
      </Card>
    </div>
  );
}
