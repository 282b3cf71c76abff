import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { currentLang, switchLanguage } from '../i18n';
import { LANGS, type Lang } from '../lang';
import { langNameKey } from './langName';

/**
 * The signed-out pages' language switch: a native select of the four languages, each named in
 * itself, so that the login page does not load the dropdown and menu of the shell's
 * LanguageSwitch. Choosing one sets the cookie and reloads the page.
 */
export function LanguageToggle() {
  const { t } = useTranslation();
  return (
    <label style={{ display: 'inline-flex', alignItems: 'center', gap: 6, color: 'rgba(0,0,0,0.65)' }}>
      <GlobalOutlined aria-hidden />
      <select
        aria-label={t('common:language.switch')}
        value={currentLang()}
        onChange={(e) => void switchLanguage(e.target.value as Lang, false)}
        style={{ border: 'none', background: 'transparent', font: 'inherit', color: 'inherit', cursor: 'pointer', padding: '2px 0' }}
      >
        {LANGS.map((l) => (
          <option key={l} value={l}>
            {t(langNameKey(l))}
          </option>
        ))}
      </select>
    </label>
  );
}
