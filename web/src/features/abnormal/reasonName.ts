/** Pure helpers of exception handling: a catalogue reason's name in the interface language. */

export interface NamedReason {
  nameZh: string;
  nameEn: string;
}

/**
 * The reason's name in `lang` (a reason may be named in one language only: then that one). Reasons
 * are named in Chinese and English: the other languages read the English name.
 */
export const reasonName = (r: NamedReason, lang: string) => (lang.startsWith('zh') ? r.nameZh || r.nameEn : r.nameEn || r.nameZh);
