import { BellOutlined, DashboardOutlined, LineChartOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ShellFooter } from '../../app/shell/ShellFooter';
import { LogoMark } from '../../ui/Logo';

/** The left half of the public pages (login, registration): brand, pitch and footer. */
export function LoginHero() {
  const { t } = useTranslation('login');
  const features = [
    { icon: <DashboardOutlined />, title: t('feature.live'), text: t('feature.liveText') },
    { icon: <BellOutlined />, title: t('feature.alarm'), text: t('feature.alarmText') },
    { icon: <LineChartOutlined />, title: t('feature.history'), text: t('feature.historyText') },
  ];
  return (
    <section className="cw-login-hero">
      <div className="cw-login-brand">
        <LogoMark size={40} />
        <span>{t('common:product')}</span>
      </div>
      <div className="cw-login-pitch">
        <h1>{t('headline')}</h1>
        <p>{t('tagline')}</p>
        <ul>
          {features.map((f) => (
            <li key={f.title}>
              <span className="cw-login-feature-icon">{f.icon}</span>
              <div>
                <strong>{f.title}</strong>
                <span>{f.text}</span>
              </div>
            </li>
          ))}
        </ul>
      </div>
      <ShellFooter dark />
    </section>
  );
}
