/** The time zones of spec §9 (UTC−12..UTC+12) the device dialogs offer; their gateway and carrier pickers are in devicePickers.tsx. */

/** "+08:00" style offsets from −12:00 to +12:00 in whole hours (spec §9 time zones). */
export const TIME_ZONES = Array.from({ length: 25 }, (_, i) => {
  const h = i - 12;
  return `${h < 0 ? '-' : '+'}${String(Math.abs(h)).padStart(2, '0')}:00`;
});

export const timeZoneOptions = TIME_ZONES.map((z) => ({ value: z, label: `UTC${z}` }));
