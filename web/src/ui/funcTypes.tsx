import type { ReactNode } from 'react';
import { SCENE_FUNC } from '@coldwatch/contract';
import { ApartmentOutlined, EnvironmentOutlined, MenuOutlined, PictureOutlined } from '@ant-design/icons';

/** Node function types of spec §3: 0 organisation, 1 floor plan, 2 map, 3 menu; each its own icon. */
export const FUNC_TYPES = Object.values(SCENE_FUNC);

const ICONS: Record<number, ReactNode> = {
  [SCENE_FUNC.organisation]: <ApartmentOutlined />,
  [SCENE_FUNC.floorPlan]: <PictureOutlined />,
  [SCENE_FUNC.map]: <EnvironmentOutlined />,
  [SCENE_FUNC.menu]: <MenuOutlined />,
};

export const funcTypeIcon = (f: number | null | undefined) => ICONS[f ?? 0] ?? ICONS[0];
