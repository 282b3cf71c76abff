import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from './queryClient';
import { App as AntApp, ConfigProvider } from 'antd';
import { BrowserRouter } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LANG, normalizeLang } from './lang';
import { antdLocaleOf } from './i18n';
import { SessionReactions } from './reactions';
import { AppRoutes } from './routes';
import { ERROR_TOAST_SECONDS } from './errors';

/**
 * Cold-chain palette: ice blue primary on a cool grey canvas, deep navy menu. On Ant Design's
 * default algorithm, left unnamed: importing `theme` to name it brings the dark and compact ones.
 */
export const THEME = {
  token: {
    colorPrimary: '#1d6fe0',
    colorInfo: '#1d6fe0',
    colorSuccess: '#16a34a',
    colorWarning: '#f59e0b',
    colorError: '#dc2626',
    colorBgLayout: '#f1f4f9',
    borderRadius: 6,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Helvetica Neue', Arial, sans-serif",
  },
  components: {
    Layout: { siderBg: '#0b1b33', headerBg: '#ffffff', headerHeight: 48, headerPadding: '0 12px', footerBg: 'transparent', footerPadding: '8px 16px' },
    Menu: { darkItemBg: '#0b1b33', darkSubMenuItemBg: '#081428', darkItemSelectedBg: '#1d6fe0' },
  },
};

function Providers() {
  const { i18n } = useTranslation();
  const lang = normalizeLang(i18n.language) ?? DEFAULT_LANG;
  return (
    <ConfigProvider locale={antdLocaleOf(lang)} componentSize="small" theme={THEME}>
      <AntApp message={{ duration: ERROR_TOAST_SECONDS, maxCount: 3 }}>
        <BrowserRouter>
          <SessionReactions />
          <AppRoutes />
        </BrowserRouter>
      </AntApp>
    </ConfigProvider>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Providers />
    </QueryClientProvider>
  );
}
