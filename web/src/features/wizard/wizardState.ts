/**
 * Progress of the set-up wizard, kept per user in the browser so that the wizard can be left and
 * resumed. Only identifiers are kept: each step has already written through the normal APIs. The
 * gateway's secret is never stored; it lives in memory for the session that created it.
 */
export interface WizardProgress {
  step: number;
  gatewayId?: number;
  gatewaySn?: string;
  sensorIds: number[];
  devNos: string[];
  carrierId?: number;
}

export const EMPTY_PROGRESS: WizardProgress = { step: 0, sensorIds: [], devNos: [] };

const key = (userId: number) => `cw.wizard.${userId}`;

export function loadProgress(userId: number | undefined, storage: Pick<Storage, 'getItem'> = localStorage): WizardProgress {
  if (!userId) return EMPTY_PROGRESS;
  try {
    const raw = JSON.parse(storage.getItem(key(userId)) ?? 'null') as Partial<WizardProgress> | null;
    if (!raw || typeof raw.step !== 'number') return EMPTY_PROGRESS;
    return { ...EMPTY_PROGRESS, ...raw, step: Math.max(0, Math.min(4, Math.trunc(raw.step))) };
  } catch {
    return EMPTY_PROGRESS;
  }
}

export function saveProgress(userId: number | undefined, p: WizardProgress, storage: Pick<Storage, 'setItem'> = localStorage) {
  if (userId) storage.setItem(key(userId), JSON.stringify(p));
}

export function clearProgress(userId: number | undefined, storage: Pick<Storage, 'removeItem'> = localStorage) {
  if (userId) storage.removeItem(key(userId));
}

/** Whether a new customer should be offered the wizard: nothing set up yet and not declined. */
export const shouldOffer = (counts: { carriers: number; gateways: number }, declined: boolean) => !declined && counts.carriers === 0 && counts.gateways === 0;
