import { z } from 'zod';
import { route } from './route.js';

/** Operations' figures in Prometheus's text format (docs/operations.md "Metrics"). */
export const metricsApi = {
  scrape: route({
    method: 'GET',
    path: '/metrics',
    tag: 'operations',
    summary: 'Readings, rejects by reason, commit latency, queue depth, notices, jobs, live clients and HTTP latency (Prometheus text)',
    result: z.string(),
    raw: 'file',
  }),
};
