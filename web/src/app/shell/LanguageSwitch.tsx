import { Button, Dropdown } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { currentLang, switchLanguage } from '../i18n';
import { LANGS, type Lang } from '../lang';
import { langNameKey } from './langName';

/** Language menu items for a Dropdown / Menu. */
export function useLanguageItems() {
  const { t } = useTranslation();
  const now = currentLang();
  return LANGS.map((l) => ({ key: `lang:${l}`, label: t(langNameKey(l)), disabled: l === now }));
}

/** The language switch of spec §1/§2: logged in, the choice is stored; the page reloads. */
export function LanguageSwitch({ loggedIn, dark = false }: { loggedIn: boolean; dark?: boolean }) {
  const { t } = useTranslation();
  const items = useLanguageItems();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items,
        selectable: true,
        selectedKeys: [`lang:${currentLang()}`],
        onClick: ({ key }) => void switchLanguage(key.slice(5) as Lang, loggedIn),
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} style={dark ? { color: 'rgba(255,255,255,0.88)' } : undefined} aria-label={t('common:language.switch')}>
        <span className="cw-lang-name">{t(langNameKey(currentLang()))}</span>
      </Button>
    </Dropdown>
  );
}
