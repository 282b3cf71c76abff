import type { ReactNode } from 'react';
import { ApartmentOutlined, EnvironmentOutlined, MenuOutlined, PictureOutlined } from '@ant-design/icons';

/** Node function types of spec §3: 0 organisation, 1 floor plan, 2 map, 3 menu; each its own icon. */
export const FUNC_TYPES = [0, 1, 2, 3] as const;

const ICONS: Record<number, ReactNode> = { 0: <ApartmentOutlined />, 1: <PictureOutlined />, 2: <EnvironmentOutlined />, 3: <MenuOutlined /> };

export const funcTypeIcon = (f: number | null | undefined) => ICONS[f ?? 0] ?? ICONS[0];
