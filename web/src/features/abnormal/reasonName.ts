/** Pure helpers of exception handling: a catalogue reason's name in the interface language. */

export interface NamedReason {
  nameZh: string;
  nameEn: string;
}

/** The reason's name in `lang` (a reason may be named in one language only: then that one). */
export const reasonName = (r: NamedReason, lang: string) => (lang.startsWith('en') ? r.nameEn || r.nameZh : r.nameZh || r.nameEn);
