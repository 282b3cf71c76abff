import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { humidity, temperature } from '@coldwatch/contract';
import { zodRule } from '../sys/formRules';

/** The four fields of a carrier's ranges (spec §3). */
export type ZoneField = 'tempMin' | 'tempMax' | 'humMin' | 'humMax';

/** The other bound of the same range (tempMin ↔ tempMax). */
export const zonePartner = (f: ZoneField): ZoneField => (f.endsWith('Min') ? (f.replace('Min', 'Max') as ZoneField) : (f.replace('Max', 'Min') as ZoneField));

const empty = (v: unknown) => v === null || v === undefined || v === '';

/**
 * Spec §5 rules of one range bound, as the server checks them: the value's own format
 * (temperature −327.67..327.67, humidity 0..100, two decimals), both bounds or neither, and the
 * minimum not above the maximum. Messages from the page's `rule.*` keys. Give the field
 * `dependencies={[zonePartner(f)]}` so that a change of one bound checks the other again.
 */
export function zoneRules(t: TFunction, f: ZoneField): Rule[] {
  return [
    zodRule(f.startsWith('temp') ? temperature : humidity, t, { optional: true }),
    ({ getFieldValue }) => ({
      validator: async (_r, v: number | null | undefined) => {
        const other = getFieldValue(zonePartner(f)) as number | null | undefined;
        if (empty(v) !== empty(other)) throw new Error(t('rule.zoneBothRequired'));
        if (f.endsWith('Min') && !empty(v) && !empty(other) && v! > other!) throw new Error(t('rule.minAboveMax'));
      },
    }),
  ];
}
