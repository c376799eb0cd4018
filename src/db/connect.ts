import { connectPglite } from './pglite.ts';
import { connectPostgres } from './postgres.ts';
import type { Database } from './types.ts';

/** A real PostgreSQL server when a URL is given, otherwise the embedded one. */
export async function connectDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  preparedStatements?: boolean;
  /** Connections to PostgreSQL for requests and workers (`PONTE_DATABASE_POOL_SIZE`). */
  poolSize: number;
}): Promise<Database> {
  return options.databaseUrl
    ? connectPostgres(options.databaseUrl, {
        max: options.poolSize,
        preparedStatements: options.preparedStatements ?? true,
      })
    : connectPglite(options.dataDir);
}
