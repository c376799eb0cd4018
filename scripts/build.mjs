/**
 * Compiles src/ to JavaScript in dist/ (with the SQL migrations beside it), so that `npm start` runs
 * without transpiling at start. Runs on `npm install` / `npm ci` (the `prepare` script). A stamp records
 * when the build began; `scripts/start.mjs` runs dist/ only while no source file is newer than it.
 * Type errors do not fail an install: `npm run typecheck` reports them, and start runs src/ meanwhile.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist`;
const began = new Date();
rmSync(dist, { recursive: true, force: true });
let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  process.stdout.write('build skipped: TypeScript is not installed; npm start runs src/ through tsx\n');
  process.exit(0);
}
const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) {
  rmSync(dist, { recursive: true, force: true });
  process.stdout.write('build failed (see above); npm start runs src/ through tsx until it builds\n');
  process.exit(0);
}
cpSync(`${root}src/db/migrations`, `${dist}/db/migrations`, { recursive: true });
const stamp = `${dist}/.built`;
writeFileSync(stamp, `${began.toISOString()}\n`);
utimesSync(stamp, began, began);
