import type { Queryable } from '../../platform/db/client.js';
import { isTaken, takenOf } from '../../platform/db/unique.js';

/**
 * Device numbers are one namespace on the whole platform (device protocol: a reading's or an
 * output's `dev` names one device): sensors (gas detectors and door magnets included), relays,
 * displays and smart bases alike.
 */
const NUMBERED = ['sensor', 'relay', 'display', 'base'] as const;
type Numbered = (typeof NUMBERED)[number];

/** Whether the number is taken by any device but `except` (the one being changed). */
export async function deviceNumberTaken(q: Queryable, devNo: string, except?: { table: Numbered; id: number }): Promise<boolean> {
  for (const t of NUMBERED) if (await isTaken(q, t, devNo, except?.table === t ? except.id : 0)) return true;
  return false;
}

/** Of these numbers, the ones taken (imports: a few queries for the whole file). */
export async function deviceNumbersTaken(q: Queryable, values: string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (const t of NUMBERED) for (const v of await takenOf(q, t, values)) taken.add(v);
  return taken;
}
