/**
 * `npm run bench -- screening`: a full re-screening of 100,000 customers against a 20,000-entry list
 * (BENCH_SCREENING_CUSTOMERS and BENCH_SCREENING_ENTRIES change the sizes). The list is synthetic but
 * shaped like the real one (individuals with one or two given names and one or two surnames, entities,
 * aliases, dates of birth and nationalities); the customers are Brazilian-style names, a few of them
 * spelling variants of listed names. Reports the import time, the re-screening rate and the subjects
 * held; fails (exit 2) when the re-screening takes longer than the 5-minute target.
 */

import { loadConfig } from '../src/config.ts';
import { connectPostgres } from '../src/db/postgres.ts';
import type { Tenant } from '../src/lib/environment.ts';
import { importList } from '../src/modules/screening/lists.ts';
import { runScreening } from '../src/modules/screening/runs.ts';
import type { ParsedEntry } from '../src/modules/screening/sources/types.ts';

const TARGET_SECONDS = 300;

let seed = 7;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;

const LISTED_FIRST = (
  'mohammed ahmad ali hassan hussein omar abdullah ibrahim khalid yusuf tariq faisal hamza mahmoud mustafa ' +
  'said nasser osama jamal karim rashid salim walid zayd bilal idris musa anwar farid ghazi hakim ' +
  'dmitri sergei aleksandr vladimir igor oleg nikolai pavel andrei viktor yelena olga natalia irina ' +
  'kim pak ri choe jang wei ming li zhang chen hui jose luis juan carlos maria ana pedro miguel rafael ' +
  'hector diego manuel jorge fernando ricardo gholamreza mahdi reza parviz hossein ali-reza amir'
).split(' ');
const SYLLABLES =
  'ka ri mo ha sa la ni vo ta ze ko ra bu di ma lu ne sho ya ba ga fa hu qa ru ti zo na be do gu'.split(' ');
const BR_FIRST = (
  'ana maria joao jose pedro paulo lucas gabriel rafael mariana beatriz julia camila larissa fernanda ' +
  'bruno carlos eduardo felipe gustavo henrique leonardo matheus rodrigo thiago vinicius amanda bianca ' +
  'carolina daniela gabriela isabela leticia luana natalia patricia renata sabrina tatiana vanessa'
).split(' ');
const BR_LAST = (
  'silva santos oliveira souza rodrigues ferreira alves pereira lima gomes costa ribeiro martins carvalho ' +
  'almeida lopes soares fernandes vieira barbosa rocha dias nascimento andrade moreira nunes marques ' +
  'machado mendes freitas cardoso ramos goncalves santana teixeira'
).split(' ');

const surname = () => Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(SYLLABLES)).join('');

function listEntries(count: number): ParsedEntry[] {
  return Array.from({ length: count }, (_, i) => {
    const entity = i % 10 === 9;
    const last = `${surname()}${random() < 0.3 ? ` ${surname()}` : ''}`;
    const primaryName = entity
      ? `${surname()} ${pick(['TRADING', 'SHIPPING', 'EXCHANGE', 'HOLDING', 'PETROLEUM'])} ${pick(['LLC', 'FZE', 'CO'])}`
      : `${pick(LISTED_FIRST)}${random() < 0.5 ? ` ${pick(LISTED_FIRST)}` : ''} ${last}`;
    const aliases = Array.from({ length: Math.floor(random() * 3) }, () => ({
      name: entity
        ? `${surname()} ${pick(['GROUP', 'TRADING'])}`
        : `${pick(LISTED_FIRST)} ${last.replace(/a/, 'e')}`,
      quality: 'aka',
    }));
    return {
      sourceUid: String(100_000 + i),
      kind: entity ? 'ENTITY' : 'INDIVIDUAL',
      primaryName: primaryName.toUpperCase(),
      aliases,
      programs: ['SDGT'],
      countries: [pick(['IRN', 'SYR', 'RUS', 'PRK', 'AFG', 'VEN', 'YEM'])],
      birthDates: entity ? [] : [String(1940 + Math.floor(random() * 60))],
      remarks: null,
      addresses: [],
      details: {},
    } satisfies ParsedEntry;
  });
}

/** Customer names: mostly Brazilian, one in a thousand a spelling variant of a listed individual. */
function customerNames(count: number, entries: ParsedEntry[]) {
  const individuals = entries.filter((e) => e.kind === 'INDIVIDUAL');
  return Array.from({ length: count }, (_, i) => {
    if (i % 1000 === 500)
      return pick(individuals)
        .primaryName.toLowerCase()
        .replace(/(\w)(\w)$/, '$2$1');
    const names = [
      pick(BR_FIRST),
      ...(random() < 0.4 ? [pick(BR_FIRST)] : []),
      pick(BR_LAST),
      ...(random() < 0.6 ? [pick(BR_LAST)] : []),
    ];
    return names.join(' ');
  });
}

export async function measureScreening(
  ctx: { databaseUrl: string; tenant: Tenant },
  log: (line: string) => void,
): Promise<number> {
  const customers = Number(process.env.BENCH_SCREENING_CUSTOMERS ?? 100_000);
  const size = Number(process.env.BENCH_SCREENING_ENTRIES ?? 20_000);
  const db = connectPostgres(ctx.databaseUrl, { max: 4 });
  try {
    const entries = listEntries(size);
    const names = customerNames(customers, entries);
    let started = Date.now();
    for (let i = 0; i < names.length; i += 5_000) {
      const chunk = names.slice(i, i + 5_000).map((name, j) => ({ name, n: i + j }));
      await db.query(
        `INSERT INTO customers (id, project_id, environment, type, name, tax_id, country, email, birth_date, created_at, updated_at)
         SELECT gen_random_uuid(), $1, 'production', 'INDIVIDUAL', r.name, lpad(r.n::text, 11, '0'), 'BRA',
                'c' || r.n || '@example.com', date '1960-01-01' + (r.n % 15000), now(), now()
           FROM jsonb_to_recordset($2::jsonb) AS r(name text, n int)`,
        [ctx.tenant.projectId, JSON.stringify(chunk)],
      );
    }
    log(`inserted ${customers} customers in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    started = Date.now();
    const counts = await importList(
      db,
      { source: 'OFAC_SDN', publishedAt: null, entries },
      `bench-${Date.now()}`,
      new Date(),
    );
    log(
      `imported a ${counts.entries}-entry list (${counts.names} names) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const config = loadConfig({ DATABASE_URL: ctx.databaseUrl });
    started = Date.now();
    let screened = 0;
    for (;;) {
      const done = await runScreening({ db, clock: () => new Date(), config });
      if (done === 0) break;
      screened += done;
    }
    const seconds = (Date.now() - started) / 1000;
    const [run] = await db.query<{ screened: bigint; held: bigint }>(
      `SELECT screened, held FROM screening_runs ORDER BY created_at DESC LIMIT 1`,
    );
    log(
      `re-screened ${Number(run!.screened)} subjects in ${seconds.toFixed(1)} s: ` +
        `${Math.round(Number(run!.screened) / seconds)} subjects/s, ${Number(run!.held)} held ` +
        `(target: ${customers} in under ${TARGET_SECONDS} s)`,
    );
    return seconds <= TARGET_SECONDS && screened >= customers ? 0 : 2;
  } finally {
    await db.close();
  }
}
