/**
 * The carriers of the caller's scope summed up on the server (GET /service/dm/monitorSummary):
 * what home's tiles and status chart show, without the whole monitor list (62 MB at 100,000
 * sensors). Read again when an exception opens or ends, and every half minute (readings move
 * carriers between states; the stream does not carry the sums).
 */
import { dmRefs } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useExceptionRefresh } from './useLiveStream';

const REFRESH_S = 30;

export function useCarrierSummary(opts: { enabled?: boolean } = {}) {
  const q = useCall(dmRefs.monitorSummary, { query: {} }, { enabled: opts.enabled ?? true, staleTime: 5_000, refetchInterval: REFRESH_S * 1000, refetchIntervalInBackground: false });
  useExceptionRefresh(() => void q.refetch());
  return q;
}
