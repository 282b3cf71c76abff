import { useState } from 'react';
import { App, Avatar, Dropdown, Space, Typography, type MenuProps } from 'antd';
import { ApiOutlined, EditOutlined, GlobalOutlined, KeyOutlined, LayoutOutlined, LogoutOutlined, QrcodeOutlined, RocketOutlined, SwapOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { USER_TYPE } from '@coldwatch/contract';
import { useAuth, useLogout } from '../auth';
import { userName } from '../../lib/seeded';
import { ApiError } from '../../api/client';
import { ERROR_TOAST_SECONDS } from '../errors';
import { switchLanguage } from '../i18n';
import { useLanguageItems } from './LanguageSwitch';
import { userMenuKeys } from '../menu';
import type { Lang } from '../lang';
import { LoginQrDialog } from '../../features/login/LoginQrDialog';
import { ProxySwitchDialog } from '../../features/personal/ProxySwitchDialog';
import { avatarUrl } from '../../features/personal/avatar';

export function UserMenu() {
  const { t } = useTranslation();
  const { user, userType, can } = useAuth();
  const doLogout = useLogout();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const langItems = useLanguageItems();
  const [dialog, setDialog] = useState<'qr' | 'proxy'>();

  const all: Record<string, NonNullable<MenuProps['items']>[number]> = {
    profile: { key: 'profile', icon: <EditOutlined />, label: t('shell:user.profile') },
    password: { key: 'password', icon: <KeyOutlined />, label: t('shell:user.password') },
    proxy: { key: 'proxy', icon: <SwapOutlined />, label: t('shell:user.proxy') },
    wizard: { key: 'wizard', icon: <RocketOutlined />, label: t('shell:user.wizard') },
    enroll: { key: 'enroll', icon: <ApiOutlined />, label: t('shell:user.enroll') },
    loginQr: { key: 'loginQr', icon: <QrcodeOutlined />, label: t('shell:user.loginQr') },
    language: { key: 'language', icon: <GlobalOutlined />, label: t('shell:user.language'), children: langItems },
    homeSettings: { key: 'homeSettings', icon: <LayoutOutlined />, label: t('shell:user.homeSettings') },
    logout: { key: 'logout', icon: <LogoutOutlined />, label: t('shell:user.logout'), danger: true },
  };
  const keys = userMenuKeys(userType, can('newGateway', 'newSensor', 'newCarrier'));
  const items: MenuProps['items'] = [
    {
      key: 'who',
      disabled: true,
      label: (
        <div className="cw-user-who">
          <Typography.Text strong>{userName(t, user)}</Typography.Text>
          <Typography.Text type="secondary">{user?.customerName}</Typography.Text>
        </div>
      ),
    },
    { type: 'divider' },
    ...keys.filter((k) => k !== 'language' && k !== 'logout' && k !== 'homeSettings').map((k) => all[k]),
    { type: 'divider' },
    all.homeSettings,
    all.language,
    { type: 'divider' },
    all.logout,
  ];

  return (
    <>
      <Dropdown
        trigger={['click']}
        menu={{
          items,
          onClick: async ({ key }) => {
            if (key.startsWith('lang:')) return void switchLanguage(key.slice(5) as Lang, true);
            if (key === 'profile') return navigate('/personal/material');
            if (key === 'password') return navigate('/personal/material?tab=password');
            if (key === 'loginQr') return setDialog('qr');
            if (key === 'wizard' || key === 'enroll') return navigate('/wizard');
            if (key === 'proxy') return setDialog('proxy');
            if (key === 'homeSettings') return navigate('/homepageset');
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
          <Avatar size={28} style={{ background: '#1d4ed8' }} src={user?.avatar ? avatarUrl(user.avatar) : undefined} icon={<UserOutlined />} />
          <span className="cw-user-name">{userName(t, user)}</span>
        </Space>
      </Dropdown>
      <LoginQrDialog open={dialog === 'qr'} onClose={() => setDialog(undefined)} />
      {userType === USER_TYPE.proxy && <ProxySwitchDialog open={dialog === 'proxy'} onClose={() => setDialog(undefined)} />}
    </>
  );
}
