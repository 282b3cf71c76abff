import { downloadRefs } from '@coldwatch/contract';

/** The file name of a content-disposition: its UTF-8 `filename*` when given, else `filename`. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star) return decodeURIComponent(star[1]);
  const plain = /filename="([^"]+)"/i.exec(disposition);
  return plain ? plain[1] : fallback;
}

export type Fetched = { ok: true; name: string } | { ok: false; status: number; msg: string };

/**
 * Downloads a record's file (§7 download: a blob, its name from content-disposition). A refusal
 * comes back as the envelope: 410 is a missing or corrupt file, which asks to generate it again (§8).
 */
export async function saveDownload(id: number, fallback: string): Promise<Fetched> {
  const res = await fetch(`${downloadRefs.download.path}?id=${id}`, { credentials: 'same-origin' });
  if (!res.ok || (res.headers.get('content-type') ?? '').includes('application/json')) {
    const body = (await res.json().catch(() => null)) as { state?: { msg?: string } } | null;
    return { ok: false, status: res.status, msg: body?.state?.msg ?? '' };
  }
  const blob = await res.blob();
  const name = fileNameOf(res.headers.get('content-disposition'), fallback);
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  return { ok: true, name };
}
