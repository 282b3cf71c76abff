import type { Metrics } from '../platform/metrics/metrics.js';
import { ingestOf, type IngestDeps } from './service.js';

/**
 * The ingest limits' figures in /metrics (docs/operations.md): messages held back by the
 * per-gateway rate limits, the gateways held back at the scrape, and the connections the
 * embedded broker closed before login. Listed from the start, at zero, so alerts can name them.
 */
export function registerIngestMetrics(deps: IngestDeps & { metrics?: Metrics }) {
  deps.metrics?.collect(async () => {
    const svc = ingestOf(deps);
    return [
      {
        name: 'coldwatch_ingest_throttled_total',
        help: 'Gateway messages held back by the per-gateway rate limits: PUBACK delayed (mqtt) or answered 429 (http)',
        type: 'counter',
        values: Object.entries(svc.pacer.throttled).map(([transport, value]) => ({ labels: { transport }, value })),
      },
      { name: 'coldwatch_ingest_throttled_gateways', help: 'Gateways held back by their rate limit now', type: 'gauge', values: [{ value: svc.pacer.held }] },
      {
        name: 'coldwatch_mqtt_connections_refused_total',
        help: 'Connections the embedded broker closed before login: CONNECT too large, not authenticated in time, gateway not authorized (stopped, customer cancelled)',
        type: 'counter',
        values: Object.entries(svc.refusedConnections).map(([reason, value]) => ({ labels: { reason }, value })),
      },
    ];
  });
}
