import { ALL_FUNCS, VIEW_FUNCS } from '@coldwatch/contract';
import type { Scope } from './scope.js';

/** Foundation permission model: an administrator holds every function, anyone else the view functions. */
export const ADMIN_FUNCS_FOR = ALL_FUNCS;
export const funcsFor = (_scope: Scope): string[] => VIEW_FUNCS;
