/**
 * `npm run screening:import -- --source ofac-sdn DIR` or `--source un FILE`: imports a sanctions list
 * into the configured database (DATABASE_URL, or the embedded database in PONTE_DATA_DIR) as a new
 * version in force, then re-screens every customer, holder and associated party against it (alongside
 * any running Ponte's workers; `--queue-only` leaves the run to them). Shows the progress of both, and
 * prints the counts; a file that does not parse is refused whole, naming the line, and nothing is written.
 */
import { loadConfig } from '../src/config.ts';
import { connectDatabase } from '../src/db/connect.ts';
import { migrate } from '../src/db/migrate.ts';
import { progressLine } from '../src/lib/progress.ts';
import { IMPORT_SOURCES, type ImportSource, importFiles } from '../src/modules/screening/import-files.ts';
import { rescreenVersion } from '../src/modules/screening/runs.ts';
import { ListFormatError } from '../src/modules/screening/sources/types.ts';

function usage(message: string): never {
  process.stderr.write(
    `${message}\nusage: npm run screening:import -- --source ofac-sdn DIR | --source un FILE [--queue-only]\n`,
  );
  process.exit(2);
}

const queueOnly = process.argv.includes('--queue-only');
const args = process.argv.slice(2).filter((arg) => arg !== '--queue-only');
const at = args.indexOf('--source');
if (at < 0) usage('--source is required');
const source = args[at + 1] as ImportSource;
if (!IMPORT_SOURCES.includes(source)) usage(`--source must be one of ${IMPORT_SOURCES.join(', ')}`);
const path = args.filter((_, i) => i !== at && i !== at + 1)[0];
if (!path)
  usage(
    source === 'un'
      ? 'the XML file is required'
      : 'the directory holding sdn.csv, alt.csv and add.csv is required',
  );

const config = loadConfig();
const db = await connectDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  preparedStatements: config.databasePreparedStatements,
  poolSize: config.databasePoolSize,
});
try {
  await migrate(db);
  const writing = progressLine(process.stderr, 'importing', 'rows');
  const counts = await importFiles(db, source, path, new Date(), writing.update);
  writing.finish(`${counts.entries + counts.names + counts.addresses} rows written`);
  process.stdout.write(
    `imported ${counts.source} version ${counts.versionId}: ${counts.entries} entries, ${counts.names} names ` +
      `(${counts.aliases} aliases), ${counts.birthDates} dates of birth, ${counts.countries} countries, ` +
      `${counts.addresses} chain addresses; in force, re-screening queued\n`,
  );
  if (!queueOnly) {
    const screening = progressLine(process.stderr, 're-screening', 'subjects');
    const run = await rescreenVersion(
      { db, clock: () => new Date(), config },
      counts.versionId,
      screening.update,
    );
    screening.finish(`${run.screened} subjects screened, ${run.held} put on hold`);
    process.stdout.write(`re-screened ${run.screened} subjects: ${run.held} on hold for review\n`);
  }
} catch (error) {
  if (error instanceof ListFormatError) {
    process.stderr.write(`refused, nothing imported: ${error.message}\n`);
    process.exitCode = 1;
  } else throw error;
} finally {
  await db.close();
}
