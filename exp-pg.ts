import { PGlite } from '@electric-sql/pglite';
import { migrate } from '/work/wt/structure/src/db/migrate.ts';
import { connectPglite } from '/work/wt/structure/src/db/pglite.ts';

let t = performance.now();
const lap = (l: string) => {
  const n = performance.now();
  console.log(l, Math.round(n - t));
  t = n;
};
const db = await connectPglite('memory://');
lap('create');
await migrate(db);
lap('migrate');
await db.close();
const p = await PGlite.create();
lap('create2');
await p.exec('select 1');
const dump = await p.dumpDataDir('none');
lap('dump ' + dump.size);
await p.close();
const q = await PGlite.create({ loadDataDir: dump });
lap('load');
console.log(await q.query('select 1'));
lap('q');
