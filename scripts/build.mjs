/**
 * Compiles src/ to JavaScript in dist/ (one ES module, dist/main.js, with its source map and the SQL
 * migrations beside it), so that `npm start` runs without transpiling at start. Runs on `npm install` /
 * `npm ci` (the `prepare` script), so it has to be quick: esbuild transpiles and bundles the service's own
 * modules in well under a second, leaving every package in node_modules external. It does not check
 * types (`npm run typecheck` does), so type errors never fail an install. A stamp records when the build
 * began; `scripts/start.mjs` runs dist/ only while no source file is newer than it.
 */
import { cpSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// An argument names another output folder (tests build beside the checkout, not over its dist/).
const dist = process.argv[2] ? resolve(process.argv[2]) : `${root}dist`;
const began = new Date();
rmSync(dist, { recursive: true, force: true });
let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  process.stdout.write('build skipped: esbuild is not installed; npm start runs src/ through tsx\n');
  process.exit(0);
}
try {
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['src/main.ts'],
    outfile: `${dist}/main.js`,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: true,
    logLevel: 'error',
  });
} catch {
  rmSync(dist, { recursive: true, force: true });
  process.stdout.write('build failed (see above); npm start runs src/ through tsx until it builds\n');
  process.exit(0);
}
// The migrations are read from beside the module that applies them (src/db/migrate.ts), which in the
// bundle is dist/main.js.
cpSync(`${root}src/db/migrations`, `${dist}/migrations`, { recursive: true });
const stamp = `${dist}/.built`;
writeFileSync(stamp, `${began.toISOString()}\n`);
utimesSync(stamp, began, began);
