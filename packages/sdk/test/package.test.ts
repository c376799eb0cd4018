/**
 * What ships is what was tested: `npm pack` builds the package, fresh projects install the tarball (an ES
 * module project, and a default `npm init -y` one, which is CommonJS), load it through the `exports` map
 * with `import` and with `require`, type-check against its declarations (`tsc --strict`, nodenext) and run
 * what tsc compiled against a real Ponte.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_VERSION } from '../src/version.ts';
import { type SdkServer, STARTUP_TIMEOUT_MS, startSdkServer } from './support.ts';

const run = promisify(execFile);
const sdkDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rootDir = path.resolve(sdkDir, '../..');

/** The environment without npm's own variables, so a nested npm behaves as a user's would. */
const cleanEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));

let server: SdkServer;
let work: string;
let tarball: string;

beforeAll(async () => {
  server = await startSdkServer({ workers: false });
  work = await mkdtemp(path.join(tmpdir(), 'ponte-sdk-pack-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: sdkDir,
    env: cleanEnv(),
  });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as {
    filename: string;
    files: { path: string }[];
  }[];
  tarball = path.join(work, packed!.filename);
  const consumer = path.join(work, 'consumer');
  await run('mkdir', ['-p', consumer]);
  await writeFile(
    path.join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', tarball], {
    cwd: consumer,
    env: cleanEnv(),
  });
  // A project as `npm init -y` makes it: CommonJS, so its .js and compiled .ts files use require().
  const commonjs = path.join(work, 'commonjs');
  await run('mkdir', ['-p', commonjs]);
  await run('npm', ['init', '-y'], { cwd: commonjs, env: cleanEnv() });
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', tarball], {
    cwd: commonjs,
    env: cleanEnv(),
  });
}, 180_000);
afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
}, STARTUP_TIMEOUT_MS);

describe('the packed @ponte/sdk', () => {
  it('holds the built ESM, the declarations and the README, and not the sources or tests', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n');
    expect(files).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/README.md',
        'package/dist/index.js',
        'package/dist/index.d.ts',
        'package/dist/generated/openapi.d.ts',
        'package/dist/cjs/package.json',
        'package/dist/cjs/index.js',
        'package/dist/cjs/index.d.ts',
        'package/dist/cjs/generated/openapi.d.ts',
      ]),
    );
    expect(
      files.filter((file) => file.startsWith('package/src/') || file.startsWith('package/test/')),
    ).toEqual([]);
    const manifest = JSON.parse(await readFile(path.join(sdkDir, 'package.json'), 'utf8'));
    expect(manifest.version).toBe(SDK_VERSION);
    expect(manifest.dependencies ?? {}).toEqual({});
  });

  it('imports by its package name in a new project and calls a real Ponte', async () => {
    const consumer = path.join(work, 'consumer');
    await writeFile(
      path.join(consumer, 'main.js'),
      [
        "import { Ponte, PonteApiError } from '@ponte/sdk';",
        'const ponte = new Ponte({ apiKey: process.env.KEY, baseUrl: process.env.URL });',
        'const page = await ponte.customers.list();',
        "const missing = await ponte.customers.retrieve('00000000-0000-4000-8000-000000000000').catch((e) => e);",
        'console.log(JSON.stringify({ environment: ponte.environment, total: page.pagination.total,',
        '  notFound: missing instanceof PonteApiError && missing.code }));',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, ['main.js'], {
      cwd: consumer,
      env: { ...cleanEnv(), KEY: server.sandboxKey, URL: server.url },
    });
    expect(JSON.parse(stdout)).toEqual({ environment: 'sandbox', total: 0, notFound: 'not_found' });
  });

  it('type-checks a TypeScript consumer against the shipped declarations', async () => {
    const consumer = path.join(work, 'consumer');
    await writeFile(
      path.join(consumer, 'check.ts'),
      [
        "import { Ponte, type Customer, type WebhookEvent } from '@ponte/sdk';",
        "const ponte = new Ponte({ apiKey: 'sk_sandbox_x' });",
        'export async function names(): Promise<string[]> {',
        '  const out: string[] = [];',
        '  for await (const customer of ponte.customers.list({ limit: 50 })) out.push((customer satisfies Customer).name);',
        '  return out;',
        '}',
        'export function kind(event: WebhookEvent): string {',
        "  return event.eventType === 'transaction.updated' ? event.data.status : event.eventType;",
        '}',
      ].join('\n'),
    );
    await writeFile(
      path.join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          typeRoots: [path.join(rootDir, 'node_modules/@types')],
          types: ['node'],
        },
        files: ['check.ts'],
      }),
    );
    const tsc = path.join(rootDir, 'node_modules/typescript/bin/tsc');
    await expect(run(process.execPath, [tsc, '-p', consumer], { cwd: consumer })).resolves.toBeDefined();
  }, 180_000);
  it('requires by its package name in a default npm init -y project and calls a real Ponte', async () => {
    const commonjs = path.join(work, 'commonjs');
    const manifest = JSON.parse(await readFile(path.join(commonjs, 'package.json'), 'utf8'));
    // npm 11 writes "type": "commonjs"; earlier npm writes no type, which Node reads the same way
    expect(manifest.type ?? 'commonjs').toBe('commonjs');
    await writeFile(
      path.join(commonjs, 'main.js'),
      [
        "const { Ponte, PonteApiError } = require('@ponte/sdk');",
        'const ponte = new Ponte({ apiKey: process.env.KEY, baseUrl: process.env.URL });',
        '(async () => {',
        '  const page = await ponte.customers.list();',
        "  const missing = await ponte.customers.retrieve('00000000-0000-4000-8000-000000000000').catch((e) => e);",
        "  const esm = await import('@ponte/sdk');",
        '  console.log(JSON.stringify({ environment: ponte.environment, total: page.pagination.total,',
        '    notFound: missing instanceof PonteApiError && missing.code, esm: typeof esm.Ponte }));',
        '})();',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, ['main.js'], {
      cwd: commonjs,
      env: { ...cleanEnv(), KEY: server.sandboxKey, URL: server.url },
    });
    expect(JSON.parse(stdout)).toEqual({
      environment: 'sandbox',
      total: 0,
      notFound: 'not_found',
      esm: 'function',
    });
  });

  // tsc with nodenext compiles a CommonJS project's imports to require(): what it emits must run, not only
  // type-check; and the same for an ES module project.
  for (const project of ['commonjs', 'consumer'] as const) {
    it(`compiles a TypeScript ${project === 'commonjs' ? 'CommonJS' : 'ES module'} project with tsc --strict (nodenext) and runs its output`, async () => {
      const dir = path.join(work, project);
      await writeFile(
        path.join(dir, 'app.ts'),
        [
          "import { Ponte, PonteApiError, type Customer } from '@ponte/sdk';",
          'const ponte = new Ponte({ apiKey: process.env.KEY ?? "", baseUrl: process.env.URL });',
          'async function main(): Promise<void> {',
          '  const names: string[] = [];',
          '  for await (const customer of ponte.customers.list({ limit: 50 })) names.push((customer satisfies Customer).name);',
          "  const missing: unknown = await ponte.customers.retrieve('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);",
          '  console.log(JSON.stringify({ names, notFound: missing instanceof PonteApiError ? missing.code : null }));',
          '}',
          'void main();',
        ].join('\n'),
      );
      await writeFile(
        path.join(dir, 'tsconfig.app.json'),
        JSON.stringify({
          compilerOptions: {
            module: 'nodenext',
            moduleResolution: 'nodenext',
            target: 'es2022',
            strict: true,
            skipLibCheck: false,
            outDir: 'out',
            typeRoots: [path.join(rootDir, 'node_modules/@types')],
            types: ['node'],
          },
          files: ['app.ts'],
        }),
      );
      const tsc = path.join(rootDir, 'node_modules/typescript/bin/tsc');
      await run(process.execPath, [tsc, '-p', 'tsconfig.app.json'], { cwd: dir });
      const compiled = await readFile(path.join(dir, 'out/app.js'), 'utf8');
      expect(compiled).toContain(project === 'commonjs' ? 'require("@ponte/sdk")' : "from '@ponte/sdk'");
      const { stdout } = await run(process.execPath, ['out/app.js'], {
        cwd: dir,
        env: { ...cleanEnv(), KEY: server.sandboxKey, URL: server.url },
      });
      expect(JSON.parse(stdout)).toEqual({ names: [], notFound: 'not_found' });
    }, 180_000);
  }
});

describe("the README's install command", () => {
  it('installs the SDK, as printed, into a partner project beside a Ponte checkout, and the project calls Ponte', async () => {
    const readme = await readFile(path.join(sdkDir, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Install'), readme.indexOf('## Quick start'));
    const command = /```sh\n([\s\S]*?)```/.exec(section)?.[1]?.trim();
    expect(command).toBeDefined();
    expect(command!.split('\n')).toHaveLength(1);
    // the layout the README assumes: the partner's project, and the Ponte checkout at ../ponte
    const place = await mkdtemp(path.join(tmpdir(), 'ponte-sdk-install-'));
    try {
      const project = path.join(place, 'partner');
      await run('mkdir', ['-p', project]);
      await run('ln', ['-s', rootDir, path.join(place, 'ponte')]);
      await run('npm', ['init', '-y'], { cwd: project, env: cleanEnv() });
      await run('bash', ['-c', command!], {
        cwd: project,
        // the registry is never needed: the SDK has no dependencies
        env: {
          ...cleanEnv(),
          npm_config_offline: 'true',
          npm_config_audit: 'false',
          npm_config_fund: 'false',
        },
      });
      const manifest = JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8'));
      expect(manifest.dependencies).toEqual({ '@ponte/sdk': `file:ponte-sdk-${SDK_VERSION}.tgz` });
      await writeFile(
        path.join(project, 'main.js'),
        [
          "const { Ponte } = require('@ponte/sdk');",
          'const ponte = new Ponte({ apiKey: process.env.KEY, baseUrl: process.env.URL });',
          'ponte.customers.list().then((page) => console.log(JSON.stringify({ total: page.pagination.total })));',
        ].join('\n'),
      );
      const { stdout } = await run(process.execPath, ['main.js'], {
        cwd: project,
        env: { ...cleanEnv(), KEY: server.sandboxKey, URL: server.url },
      });
      expect(JSON.parse(stdout)).toEqual({ total: 0 });
    } finally {
      await rm(place, { recursive: true, force: true });
    }
  }, 240_000);
});
