import type { Db } from './client.js';
import { migrate } from './migrate.js';
import { syncMenu } from '../seed/menu.js';
import { syncGuide } from '../seed/guide.js';

/** Everything a database needs before the console uses it: the schema, then the product's reference data. */
export async function prepareDb(db: Db): Promise<void> {
  await migrate(db);
  await syncMenu(db);
  await syncGuide(db);
}
