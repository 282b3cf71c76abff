import { Button } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { currentLang, switchLanguage } from '../i18n';
import { LANGS } from '../lang';
import { langNameKey } from './langName';

/**
 * The signed-out pages' language switch: one button naming the other language (there are two),
 * so that the login page does not load the dropdown and menu of the shell's LanguageSwitch.
 */
export function LanguageToggle() {
  const { t } = useTranslation();
  const other = LANGS.find((l) => l !== currentLang()) ?? LANGS[0];
  return (
    <Button type="text" icon={<GlobalOutlined />} aria-label={t('common:language.switch')} onClick={() => void switchLanguage(other, false)}>
      {t(langNameKey(other))}
    </Button>
  );
}
