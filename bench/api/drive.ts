import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const loadScript = fileURLToPath(new URL('./load.ts', import.meta.url));

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  bad: number;
}

/** GETs `url` at `rate` for `seconds` from a process of its own (load.ts), so that the load does not share the console's event loop. */
export async function driveLoad(url: string, rate: number, seconds: number, headers: Record<string, string>): Promise<LoadResult> {
  const args = ['--import', 'tsx', loadScript, url, String(rate), String(seconds), JSON.stringify(headers)];
  const out = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, args, { maxBuffer: 1 << 20 }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
  return JSON.parse(out.trim().split('\n').pop()!) as LoadResult;
}
