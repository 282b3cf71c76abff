import type { ReactNode } from 'react';
import {
  AlertOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  ClusterOutlined,
  ContainerOutlined,
  DashboardOutlined,
  FileSearchOutlined,
  HomeOutlined,
  NotificationOutlined,
  ProfileOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  TeamOutlined,
  UserOutlined,
  BankOutlined,
  MenuOutlined,
  QuestionCircleOutlined,
  ExceptionOutlined,
  DesktopOutlined,
  QrcodeOutlined,
} from '@ant-design/icons';

/** Icons by the menu resource's icon name (spec §3 menu resource `icon`). */
const BY_ICON: Record<string, ReactNode> = {
  home: <HomeOutlined />,
  dashboard: <DashboardOutlined />,
  container: <ContainerOutlined />,
  alert: <AlertOutlined />,
  cluster: <ClusterOutlined />,
  apartment: <ApartmentOutlined />,
  'bar-chart': <BarChartOutlined />,
  profile: <ProfileOutlined />,
  notification: <NotificationOutlined />,
  team: <TeamOutlined />,
  setting: <SettingOutlined />,
  user: <UserOutlined />,
  qrcode: <QrcodeOutlined />,
};

/** Icons by menu code, for entries whose resource names no icon (and for the shortcut bar). */
const BY_CODE: Record<string, ReactNode> = {
  home: <HomeOutlined />,
  databoard: <DashboardOutlined />,
  deviceMonitor: <DesktopOutlined />,
  carrier: <ContainerOutlined />,
  exception: <AlertOutlined />,
  ex: <ExceptionOutlined />,
  device: <ClusterOutlined />,
  application: <ApartmentOutlined />,
  count: <BarChartOutlined />,
  workOrder: <ProfileOutlined />,
  findCode: <QrcodeOutlined />,
  log: <NotificationOutlined />,
  sysLog: <FileSearchOutlined />,
  account: <TeamOutlined />,
  user: <UserOutlined />,
  role: <SafetyCertificateOutlined />,
  sys: <SettingOutlined />,
  customer: <BankOutlined />,
  resource: <MenuOutlined />,
  onlineHelp: <QuestionCircleOutlined />,
};

export function menuIcon(code: string, icon?: string | null): ReactNode {
  return (icon && BY_ICON[icon]) || BY_CODE[code] || <AppstoreOutlined />;
}
