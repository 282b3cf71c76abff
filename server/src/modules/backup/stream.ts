import type { Writable } from 'node:stream';

/**
 * Waits until `sink` takes writes again (undefined when it does already); rejects when it is
 * closed meanwhile (the client went away, the file failed), so that a writer never waits for
 * a 'drain' that will not come.
 */
export function drained(sink: Writable): Promise<void> | undefined {
  if (sink.destroyed) return Promise.reject(new Error('the output was closed before the end'));
  if (!sink.writableNeedDrain) return undefined;
  return new Promise((resolve, reject) => {
    const ok = () => (sink.off('close', gone), resolve());
    const gone = () => (sink.off('drain', ok), reject(new Error('the output was closed before the end')));
    sink.once('drain', ok);
    sink.once('close', gone);
  });
}
