import os from 'node:os';

/** What a replica id may hold: it names MQTT sessions and PostgreSQL connections, and prefixes bus messages. */
export const REPLICA_ID_PATTERN = /^[A-Za-z0-9._-]{1,40}$/;

/**
 * A replica's id when REPLICA_ID is not set: the host name and the HTTP port, which stay the
 * same when the same console restarts on the same machine (so it resumes its own MQTT session)
 * and differ between two consoles on one machine.
 */
export function defaultReplicaId(port: number, host = os.hostname()): string {
  const clean = host.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'host';
  const suffix = `-${port}`;
  return clean.slice(0, 40 - suffix.length) + suffix;
}

/**
 * The client id of the ingest session on an external broker. With the exclusive subscription
 * there is one console per database (platform/cluster refuses a second), so the session is the
 * deployment's, `coldwatch-ingest`, wherever that console runs. With the shared subscription
 * each replica has its own persistent session, named after it: replicas never take each
 * other's session, and a restarted replica resumes its own (and the messages queued for it).
 */
export function ingestClientId(subscription: 'exclusive' | 'shared', replicaId: string): string {
  return subscription === 'shared' ? `coldwatch-ingest-${replicaId}` : 'coldwatch-ingest';
}
