import type { TFunction } from 'i18next';

/** A unit's name in the user's language: the seeded units are translated by number, a unit a user typed stays as typed. */
export const unitName = (t: TFunction, u: { unit: string; number: string }) => t(`unit:seeded.${u.number}`, { defaultValue: u.unit });

/** The name with its mark, as the ranges show a unit: "Temperature (°C)". */
export const unitWithMark = (t: TFunction, u: { unit: string; number: string; mark: string }) => `${unitName(t, u)} (${u.mark})`;
