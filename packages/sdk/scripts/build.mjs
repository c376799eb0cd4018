/**
 * Builds the package twice from one source: ES modules with their declarations in dist/, and CommonJS
 * with its own declarations in dist/cjs/ (marked `"type": "commonjs"`, so Node and TypeScript read those
 * files as CommonJS). The `exports` map sends `import` to the first and `require` to the second.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync(`${dir}dist`, { recursive: true, force: true });
for (const project of ['tsconfig.build.json', 'tsconfig.cjs.json']) {
  execFileSync(process.execPath, [tsc, '-p', project], { cwd: dir, stdio: 'inherit' });
}
writeFileSync(`${dir}dist/cjs/package.json`, `${JSON.stringify({ type: 'commonjs' })}\n`);
