import type { GuideBook } from '@coldwatch/contract';

export type Article = GuideBook[number]['items'][number];
export type Lang = 'zh-CN' | 'en-US';

/** An article's name and text in the reader's language, the other's when it has none. */
export function inLang(a: { nameZh: string; nameEn: string; contentZh?: string; contentEn?: string }, lang: Lang) {
  const zh = lang === 'zh-CN';
  const name = (zh ? a.nameZh : a.nameEn) || (zh ? a.nameEn : a.nameZh);
  const content = (zh ? a.contentZh : a.contentEn) || (zh ? a.contentEn : a.contentZh) || '';
  return { name, content };
}

export type Block = { kind: 'p'; text: string } | { kind: 'ul'; items: string[] };

/** The article's plain text as blocks: paragraphs split by a blank line, "- " lines a list. No HTML is ever read from it. */
export function blocks(text: string): Block[] {
  return text
    .split(/\n\s*\n/)
    .map((chunk) => chunk.trim())
    .filter(Boolean)
    .map((chunk): Block => {
      const lines = chunk.split('\n').map((l) => l.trim());
      return lines.every((l) => l.startsWith('- ')) ? { kind: 'ul', items: lines.map((l) => l.slice(2)) } : { kind: 'p', text: lines.join(' ') };
    });
}

/** The groups with the articles whose name or text holds every word of the query (either language), in order. */
export function search(book: GuideBook, query: string): GuideBook {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return book;
  const hit = (a: Article) => {
    const hay = `${a.nameZh} ${a.nameEn} ${a.contentZh} ${a.contentEn}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  };
  return book.map((g) => ({ ...g, items: g.items.filter(hit) })).filter((g) => g.items.length);
}

/** The article explaining a console path: the one whose path is it, else the longest that begins it. */
export function articleFor(book: GuideBook, path: string): Article | undefined {
  const all = book.flatMap((g) => g.items).filter((a) => a.path);
  return all.find((a) => a.path === path) ?? all.filter((a) => path.startsWith(`${a.path}/`)).sort((x, y) => y.path.length - x.path.length)[0];
}
