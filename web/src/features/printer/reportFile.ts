import { Code } from '@coldwatch/contract';
import { ApiError } from '../../api/client';

/**
 * A report as a file: POST (print a group, a carrier report) or GET (a report kept) answered
 * with a PDF, saved by the browser under the name of its content-disposition (the UTF-8 name,
 * so a Chinese carrier name stays). A refusal comes as the usual envelope and is thrown as an
 * ApiError, its message already in the user's language. Reports take longer than the 10 s of a
 * call (spec §9 is for answers, not documents): one minute.
 */
export async function fetchReport(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ name: string; reportId: number | null }> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), 60_000);
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      signal: ctrl.signal,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, navigator.onLine ? 'timeout' : 'offline', 0);
  } finally {
    clearTimeout(timer);
  }
  if (!(res.headers.get('content-type') ?? '').startsWith('application/pdf')) {
    const env = (await res.json().catch(() => null)) as { state?: { code: number; msg: string }; result?: { errors?: Record<string, string> } } | null;
    throw new ApiError(env?.state?.code ?? Code.FAILED, env?.state?.msg ?? '', res.status, env?.result?.errors);
  }
  const name = fileNameOf(res.headers.get('content-disposition')) ?? 'report.pdf';
  saveBlob(await res.blob(), name);
  const id = Number(res.headers.get('x-report-id'));
  return { name, reportId: Number.isFinite(id) && id > 0 ? id : null };
}

/** The name of a content-disposition: RFC 5987's filename* first, else the plain one. */
export function fileNameOf(cd: string | null): string | null {
  if (!cd) return null;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(cd);
  if (star) return decodeURIComponent(star[1]);
  return /filename="?([^";]+)"?/i.exec(cd)?.[1] ?? null;
}

function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
