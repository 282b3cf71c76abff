export type { RoleDetail, RoleRow } from '@coldwatch/contract';

export const LEVEL_COLOR: Record<number, string> = { [-1]: 'magenta', 0: 'default', 1: 'blue', 2: 'cyan', 3: 'purple' };
