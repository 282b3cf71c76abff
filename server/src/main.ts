import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from './config.js';
import { openDb } from './platform/db/client.js';
import { migrate } from './platform/db/migrate.js';
import { Bus } from './platform/events.js';
import { ensureRoot } from './platform/seed/root.js';
import { choosePort } from './platform/net/port.js';
import { buildApp } from './app.js';

/** Process entry: config → database → broker → HTTP → jobs. */
async function main() {
  const config = loadConfig();
  const logger = { level: config.logLevel };
  if (!config.databaseUrl) await mkdir(config.dataDir, { recursive: true });
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : path.join(config.dataDir, 'pg') });
  await migrate(db);
  await ensureRoot(db, config.rootPassword ?? 'admin123');
  const bus = new Bus();
  const http = await choosePort(config.port, config.portExplicit, 'HTTP');
  const app = await buildApp({ config, db, bus }, { logger });
  if (http.note) app.log.warn(http.note);
  await app.listen({ port: http.port, host: '0.0.0.0' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : http.port;
  app.log.info(`Coldwatch console on http://localhost:${port}`);

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
