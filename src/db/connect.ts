import { connectPglite } from './pglite.ts';
import { connectPostgres } from './postgres.ts';
import type { Database } from './types.ts';

/** A real PostgreSQL server when a URL is given, otherwise the embedded one. */
export async function connectDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  preparedStatements?: boolean;
  poolSize?: number;
}): Promise<Database> {
  return options.databaseUrl
    ? connectPostgres(options.databaseUrl, {
        preparedStatements: options.preparedStatements ?? true,
        ...(options.poolSize === undefined ? {} : { max: options.poolSize }),
      })
    : connectPglite(options.dataDir);
}
