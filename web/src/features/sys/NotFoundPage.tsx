import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LogoMark } from '../../ui/Logo';

/** /404 (spec §2): unknown paths land here. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', background: '#f1f4f9' }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 10, marginBottom: 8 }}>
        <LogoMark size={28} />
        <span style={{ fontSize: 18, fontWeight: 600, color: '#0b1b33' }}>{t('common:product')}</span>
      </div>
      <Result
        status="404"
        title="404"
        subTitle={t('common:notFound.text')}
        extra={[
          <Button key="back" onClick={() => navigate(-1)}>
            {t('common:notFound.back')}
          </Button>,
          <Button key="home" type="primary" onClick={() => navigate('/home', { replace: true })}>
            {t('common:notFound.home')}
          </Button>,
        ]}
      />
    </div>
  );
}
