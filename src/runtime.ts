/** Opens what a process needs: the database (migrated), server keys and the API key cache. */
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { type Clock, systemClock } from './core/clock.ts';
import { connectDatabase } from './db/connect.ts';
import { migrate } from './db/migrate.ts';
import { loadInstanceKeys } from './lib/instance-keys.ts';
import { ApiKeyCache } from './modules/projects/key-cache.ts';

export async function openContext(config: Config, clock: Clock = systemClock): Promise<AppContext> {
  const db = await connectDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    preparedStatements: config.databasePreparedStatements,
  });
  try {
    await migrate(db);
    const instanceKeys = await loadInstanceKeys(db, process.env.PONTE_INSTANCE_SECRET, clock());
    return { config, db, clock, keys: new ApiKeyCache(db, config.apiKeyCacheTtlMs), instanceKeys };
  } catch (error) {
    await db.close();
    throw error;
  }
}
