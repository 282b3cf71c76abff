import type { TFunction } from 'i18next';
import { CARRIER_TYPES } from '@coldwatch/contract';

/** Labels of the carrier catalogues, from the `carrier` namespace whatever the caller's namespace. */
export const carrierTypeLabel = (t: TFunction, type: number) => t(`monitor:carrierType.${type}`, { defaultValue: String(type) });
/** The plural of a type: the title of its list page. */
export const carrierTypePlural = (t: TFunction, type: number) => t(`carrier:type.${type}`, { defaultValue: String(type) });
export const carrierStatusLabel = (t: TFunction, status: number) => t(`carrier:status.${status}`, { defaultValue: String(status) });

/** Colours of carrier status tags (spec §4: running, scrapped, spare, awaiting repair, defrost). */
export const STATUS_COLORS: Record<number, string> = { 1: 'green', 2: 'default', 3: 'blue', 4: 'orange', 5: 'cyan' };

/** The carrier type of a list route (/carrier/incubator → 1). */
export const typeOfRoute = (path: string) => CARRIER_TYPES.find((c) => c.route === path)?.type;

/** A zone as text: "2 ~ 8 °C", or '--' when not set. */
export const zoneText = (min: number | null, max: number | null, unit: string) => (min === null || max === null ? '--' : `${min} ~ ${max} ${unit}`);
