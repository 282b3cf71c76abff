import { App, Avatar, Dropdown, Space, Typography } from 'antd';
import { GlobalOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAuth, useLogout } from '../auth';
import { ApiError } from '../../api/client';
import { ERROR_TOAST_SECONDS } from '../errors';
import { switchLanguage } from '../i18n';
import { useLanguageItems } from './LanguageSwitch';
import type { Lang } from '../lang';

/** User menu with the entries that work today: language and logout. */
export function UserMenu() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const doLogout = useLogout();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const langItems = useLanguageItems();

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'who', label: <Typography.Text type="secondary">{user?.customerName}</Typography.Text>, disabled: true },
          { type: 'divider' },
          { key: 'language', icon: <GlobalOutlined />, label: t('shell:user.language'), children: langItems },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: t('shell:user.logout'), danger: true },
        ],
        onClick: async ({ key }) => {
          if (key.startsWith('lang:')) return void switchLanguage(key.slice(5) as Lang, true);
          if (key === 'logout') {
            try {
              await doLogout();
            } catch (e) {
              void message.error({ content: e instanceof ApiError && e.message && e.code !== 0 ? e.message : t('shell:user.logoutFailed'), duration: ERROR_TOAST_SECONDS });
            }
            navigate('/login', { replace: true });
          }
        },
      }}
    >
      <Space style={{ cursor: 'pointer', paddingInline: 8 }} data-testid="user-menu">
        <Avatar size={28} style={{ background: '#1d4ed8' }} icon={<UserOutlined />} />
        <span className="cw-user-name">{user?.name || user?.account}</span>
      </Space>
    </Dropdown>
  );
}
