import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import './footer.css';

/** Footer of spec §1: copyright and the business-registration badge. */
export function ShellFooter({ dark = false }: { dark?: boolean }) {
  const { t } = useTranslation();
  return (
    <footer className={dark ? 'cw-footer cw-footer-dark' : 'cw-footer'}>
      <span>{t('common:footer.copyright', { year: new Date().getFullYear() })}</span>
      <span className="cw-footer-sep">|</span>
      <span className="cw-badge">
        <SafetyCertificateOutlined /> {t('common:footer.badge')}
      </span>
    </footer>
  );
}
