import { timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { metricsApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { crossTenant, system } from '../../platform/db/kysely.js';
import { ingestOf } from '../../ingest/service.js';
import { healthOf } from '../../platform/health/health.js';
import { Metrics } from '../../platform/metrics/metrics.js';
import { serve } from '../../platform/http/route.js';

const isLoopback = (ip: string) => /^(127\.|::1$|::ffff:127\.)/.test(ip);

// Skipped: an alarm that went to nobody on purpose (the notice log says why); a rise is worth an alert.
const NOTICE_STATUS_NAME: Record<number, string> = { 0: 'pending', 1: 'sent', 2: 'failed', 3: 'skipped' };

/**
 * `GET /metrics` for Prometheus. With METRICS_TOKEN set it needs `Authorization: Bearer <token>`
 * from anyone; without one it answers only callers on this machine's loopback (a scraper beside
 * the console), since its counts still tell an outsider how busy and how healthy the console
 * is. Behind a trusted proxy (TRUST_PROXY) the address is the forwarded client's, so a request
 * relayed from outside is not taken for a local one.
 */
export const metricsRoutes: Module = (app, deps) => {
  const metrics = (deps.metrics ??= new Metrics());
  const { db, config } = deps;

  metrics.collect(async () => {
    const w = ingestOf(deps).writer;
    return [
      { name: 'coldwatch_readings_total', help: 'Readings and messages by outcome', type: 'counter', values: [
        { labels: { outcome: 'accepted' }, value: w.stats.accepted },
        { labels: { outcome: 'duplicate' }, value: w.stats.duplicates },
        { labels: { outcome: 'rejected' }, value: w.stats.rejected },
      ] },
      { name: 'coldwatch_rejects_total', help: 'Reject log entries by reason', type: 'counter', values: [...w.rejectedBy].map(([reason, value]) => ({ labels: { reason }, value })) },
      { name: 'coldwatch_writer_batches_total', help: 'Write batches by outcome', type: 'counter', values: [
        { labels: { outcome: 'committed' }, value: w.stats.batches },
        { labels: { outcome: 'failed' }, value: w.stats.failedBatches },
        { labels: { outcome: 'split' }, value: w.stats.splitBatches },
        { labels: { outcome: 'retried' }, value: w.stats.retriedBatches },
      ] },
      { name: 'coldwatch_writer_commit_seconds_sum', help: 'Time spent committing batches', type: 'counter', values: [{ value: w.stats.commitMs / 1000 }] },
      { name: 'coldwatch_writer_queue_readings', help: 'Readings waiting for a commit', type: 'gauge', values: [{ value: w.queued }] },
      { name: 'coldwatch_ingest_last_message_age_seconds', help: 'Seconds since the last message from any gateway (or since the start, before the first)', type: 'gauge', values: [{ value: Math.round((Date.now() - ingestOf(deps).lastMessageAt) / 1000) }] },
    ];
  });
  metrics.collect(async () => {
    const health = healthOf(deps);
    // The usual ones are listed even before they first happen, so alerts can be written on them.
    for (const name of ['database', 'ingest']) health.fault(name);
    const faults = health.all();
    return [
      { name: 'coldwatch_fault_active', help: '1 while a fault holds: database unreachable, broker session lost, ingest silent', type: 'gauge', values: faults.map((f) => ({ labels: { fault: f.name }, value: f.active ? 1 : 0 })) },
      { name: 'coldwatch_fault_starts_total', help: 'Times each fault began', type: 'counter', values: faults.map((f) => ({ labels: { fault: f.name }, value: f.starts })) },
    ];
  });

  metrics.collect(async () => {
    const notices = await crossTenant(db, 'counts of every customer\'s notices, no rows')
      .selectFrom('notice_log')
      .select(['status', sql<number>`count(*)::int`.as('n')])
      .groupBy('status')
      .execute();
    const jobs = await system(db).selectFrom('job_schedule').select(['name', 'last_state']).execute();
    return [
      { name: 'coldwatch_notices', help: 'Alarm notices by status', type: 'gauge', values: notices.map((r) => ({ labels: { status: NOTICE_STATUS_NAME[r.status] ?? String(r.status) }, value: r.n })) },
      { name: 'coldwatch_job_last_ok', help: '1 when the job\'s last run succeeded', type: 'gauge', values: jobs.map((j) => ({ labels: { job: j.name }, value: j.last_state === 'done' ? 1 : 0 })) },
    ];
  });

  const allowed = (auth: string | undefined, ip: string) => {
    if (!config.metricsToken) return isLoopback(ip);
    const want = Buffer.from(`Bearer ${config.metricsToken}`);
    const got = Buffer.from(auth ?? '');
    return got.length === want.length && timingSafeEqual(got, want);
  };

  serve(app, metricsApi.scrape, { public: true }, async (req, reply) => {
    if (!allowed(req.headers.authorization, req.ip)) return reply.status(401).type('text/plain').send('unauthorized\n');
    return reply.type('text/plain; version=0.0.4').send(await metrics.render());
  });
};
