import {
  AppstoreOutlined,
  CarOutlined,
  DatabaseOutlined,
  ExperimentOutlined,
  HomeOutlined,
  InboxOutlined,
  ShopOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/** One icon per carrier type of spec §3 (1 incubator … 7 other). */
export const CARRIER_ICONS: Record<number, ReactNode> = {
  1: <ExperimentOutlined />,
  2: <InboxOutlined />,
  3: <CarOutlined />,
  4: <DatabaseOutlined />,
  5: <HomeOutlined />,
  6: <ShopOutlined />,
  7: <AppstoreOutlined />,
};

export const carrierIcon = (type: number) => CARRIER_ICONS[type] ?? CARRIER_ICONS[7];
