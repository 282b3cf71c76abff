import type { FastifyBaseLogger } from 'fastify';
import { buildApp, type App } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { Bus } from '../src/platform/events.js';
import { ensureRoot, createCustomerWithAdmin } from '../src/platform/seed/root.js';
import type { Db } from '../src/platform/db/client.js';
import type { AppDeps } from '../src/deps.js';
import { IngestService } from '../src/ingest/service.js';
import { freshDb } from './db.js';
import { hashPassword } from '../src/platform/auth/password.js';

export interface TestCtx {
  app: App;
  db: Db;
  /** The test database's connection string (PostgreSQL only), for a second connection of a test's own. */
  databaseUrl?: string;
  bus: Bus;
  config: Config;
  /** What the app was built from; startIngest(t.deps, …) runs device ingest on the same service. */
  deps: AppDeps;
  /** Device ingest (HTTP routes use it; tests may start MQTT transports on it). */
  ingest: IngestService;
  /** Customer A ("Alpha Hospital", admin `alpha`) and customer B ("Beta Clinic", admin `beta`). */
  tenants: { a: { customerId: number; userId: number }; b: { customerId: number; userId: number }; root: { customerId: number; userId: number } };
  /** A user of a customer holding one of its roles (default roles: 'Administrator', 'Operator'), password PASSWORD. */
  addUser(customerId: number, account: string, roleName?: string, userType?: number): Promise<number>;
  /** Logs in and returns the session cookie header. */
  login(account: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

export const PASSWORD = 'secret123';

/** Serves the test app on a free loopback port, for tests that need a real socket (raw requests, streams). */
export async function listenOnLoopback(app: App): Promise<{ port: number; url: string }> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as import('node:net').AddressInfo;
  return { port, url: `http://127.0.0.1:${port}` };
}

/** Builds the whole app on a fresh database (on `opts.databaseUrl`'s server if given) with two customers and the platform root, like production. */
export async function setup(env: Record<string, string> = {}, opts: { databaseUrl?: string; log?: FastifyBaseLogger } = {}): Promise<TestCtx> {
  const { db, url: databaseUrl, drop } = await freshDb(opts.databaseUrl);
  // ALARM_BACKFILL_HOLD_S 0: the tests' readings are years behind the clock and arrive faster than
  // it, which is a back-fill to the evaluator; it would hold every window (the hold's tests set it).
  const config = loadConfig({ VITEST: '1', LOGIN_CAPTCHA: 'off', LOGIN_RATE_LIMIT: '100000', DEMO: '0', LOG_LEVEL: 'silent', ALARM_BACKFILL_HOLD_S: '0', ...env } as any);
  const bus = new Bus();
  const root = await ensureRoot(db, PASSWORD);
  const a = await createCustomerWithAdmin(db, { name: 'Alpha Hospital', code: 'ALPHA', account: 'alpha', password: PASSWORD });
  const b = await createCustomerWithAdmin(db, { name: 'Beta Clinic', code: 'BETA', account: 'beta', password: PASSWORD });
  const deps: AppDeps = { config, db, bus, log: opts.log };
  const ingest = (deps.ingest = new IngestService(deps));
  const app = await buildApp(deps);
  await app.ready();
  return {
    app,
    db,
    databaseUrl,
    bus,
    config,
    deps,
    ingest,
    tenants: { a, b, root },
    async addUser(customerId, account, roleName = 'Operator', userType = 0) {
      const u = await db.one<{ id: number }>(
        `INSERT INTO app_user(customer_id, account, name, password_hash, user_type, is_admin) VALUES ($1, $2, $2, $3, $4, $5) RETURNING id`,
        [customerId, account, await hashPassword(PASSWORD), userType, userType === 1 || userType === 3],
      );
      await db.query(`INSERT INTO user_role (user_id, role_id) SELECT $1, id FROM role WHERE customer_id = $2 AND name = $3`, [u!.id, customerId, roleName]);
      return u!.id;
    },
    async login(account, password = PASSWORD) {
      const res = await app.inject({ method: 'POST', url: '/service/user/login', payload: { account, password } });
      const body = res.json();
      if (body.state.code !== 200000) throw new Error(`login ${account} failed: ${JSON.stringify(body)}`);
      const cookie = res.cookies.find((c) => c.name === 'cw_session');
      return `cw_session=${cookie!.value}`;
    },
    async close() {
      await app.close();
      await ingest.drain();
      await drop();
    },
  };
}
