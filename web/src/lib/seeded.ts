/**
 * Names the seed writes in English (server/src/platform/seed: the default roles, the root
 * administrator) shown in the reader's language while nobody has renamed them. A name a user
 * typed is shown as typed.
 */
import type { TFunction } from 'i18next';

const SEEDED_ROLES: Record<string, string> = {
  Administrator: 'admin',
  Operator: 'operator',
  'Platform administrator': 'platformAdmin',
  'Platform operator': 'platformOperator',
};

export const roleName = (t: TFunction, name: string) => (SEEDED_ROLES[name] ? t(`common:seeded.role.${SEEDED_ROLES[name]}`) : name);

/** A user's display name: the root administrator's seeded name is translated; no name shows the account. */
export function userName(t: TFunction, u: { name?: string | null; account?: string | null } | null | undefined): string {
  if (!u) return '';
  if (u.account === 'admin' && u.name === 'Administrator') return t('common:seeded.rootName');
  return u.name || u.account || '';
}
