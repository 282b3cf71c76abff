import { Code } from '@coldwatch/contract';
import type { Scope } from '../../platform/auth/scope.js';
import { sceneGrantRefusal } from '../../platform/db/sceneLimit.js';
import { AppError } from '../../platform/http/errors.js';

/**
 * The user form and the role form refuse (500102) what a scene-limited caller may not grant:
 * scenes outside its own limit, or no scenes at all (see sceneGrantRefusal). `granted`: the
 * scenes the change gives; `holds`: how many scenes the holder has once it is made.
 */
export function checkSceneGrant(scope: Pick<Scope, 'sceneIds'>, granted: readonly number[], holds = granted.length): void {
  const refusal = sceneGrantRefusal(scope, granted, holds);
  if (refusal) throw new AppError(Code.NO_PERMISSION, refusal);
}
