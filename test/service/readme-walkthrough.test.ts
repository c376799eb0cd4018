/**
 * The README's walk through the sandbox, run as printed (only the key, the operator token and the
 * addresses are the ones this server has), every block in order, after the first-run banner's "Try it"
 * line, twice in a row on one database, on a server started as the walk says: a partner following the
 * README must never trip, may run it again, and finds nothing left behind in the folder it ran in. The
 * SDK's version of the walk runs twice too.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownDatabase, pgliteCopy, type TestDatabase } from '../helpers/database.ts';
import { type PonteProcess, spawnPonte, stopPonte } from '../ops/ponte-process.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** Every shell block of the walk, from its heading to the SDK's. */
function allWalkBlocks(readme: string): string[] {
  const start = readme.indexOf('## A walk through the sandbox');
  const end = readme.indexOf('### The same walk with the TypeScript SDK');
  if (start < 0 || end < start) throw new Error('the README has no sandbox walk');
  return [...readme.slice(start, end).matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

/** The block that starts the server for the walk (this test starts it, with the same variables). */
function startBlock(readme: string): string {
  const found = allWalkBlocks(readme).filter((block) => block.includes('npm start'));
  if (found.length !== 1) throw new Error(`the walk should start the server once, not ${found.length} times`);
  return found[0]!;
}

/** The variables the walk's start block sets: `NAME=value ... npm start`. */
function startEnvironment(readme: string): NodeJS.ProcessEnv {
  const line = startBlock(readme)
    .split('\n')
    .find((text) => text.includes('npm start'))!;
  const prefix = line.slice(0, line.indexOf('npm start'));
  return Object.fromEntries([...prefix.matchAll(/(\w+)=(\S+)/g)].map((match) => [match[1]!, match[2]!]));
}

/** The shell blocks of the walk that run against the started server, in order. */
function walkthroughBlocks(readme: string): string[] {
  return allWalkBlocks(readme).filter((block) => !block.includes('npm start'));
}

/** The TypeScript block of the SDK's walk. */
function sdkWalk(readme: string): string {
  const start = readme.indexOf('### The same walk with the TypeScript SDK');
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(start))?.[1];
  if (start < 0 || !block) throw new Error('the README has no SDK walk');
  return block;
}

function bash(
  script: string,
  timeoutMs = 240_000,
  cwd?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', script],
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, ...(cwd ? { cwd } : {}) },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let ponte: PonteProcess;
let database: TestDatabase | null = null;
let dataDir: string | undefined;

beforeAll(async () => {
  database = await ownDatabase('ponte_readme');
  // Started as the walk says (its start block's variables), on a first run.
  const env: NodeJS.ProcessEnv = { ...startEnvironment(README), PONTE_OPERATOR_TOKEN: '' };
  if (database) env.DATABASE_URL = database.url;
  else {
    dataDir = mkdtempSync(join(tmpdir(), 'ponte-readme-'));
    await (await pgliteCopy(dataDir))?.close();
    env.PONTE_DATA_DIR = dataDir;
  }
  ponte = await spawnPonte(env);
}, 180_000);

afterAll(async () => {
  await stopPonte(ponte);
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the README walkthrough', () => {
  it('finds the walk and its helpers in the README', () => {
    const blocks = walkthroughBlocks(README);
    expect(blocks.length).toBeGreaterThan(8);
    expect(blocks[0]).toContain('json()');
  });

  it('starts the server once, before the walk, and has no block left for the reader to fill in', () => {
    // the start comes first: no block restarts the server midway with another variable
    expect(allWalkBlocks(README)[0]).toContain('npm start');
    expect(startEnvironment(README)).toEqual({ PONTE_SANDBOX_WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    for (const block of walkthroughBlocks(README)) {
      // a placeholder such as `ENDPOINT_ID=...` (the first block's key and token are printed on first run)
      const placeholders = block.match(/^\s*(export\s+)?\w+=\.\.\..*$/gm) ?? [];
      expect(placeholders, block).toEqual([]);
    }
  });

  it('the json helper fails loudly on a missing field and prints objects as JSON', async () => {
    const helpers = walkthroughBlocks(README)[0]!;
    const missing = await bash(
      `${helpers}\necho '{"type":"urn:ponte:problem:customer_exists","status":409}' | json id`,
    );
    expect(missing.code).not.toBe(0);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('json: the answer has no id');
    expect(missing.stderr).toContain('customer_exists');
    const notJson = await bash(`${helpers}\necho 'Bad Gateway' | json id`);
    expect(notJson.code).not.toBe(0);
    expect(notJson.stderr).toContain('not JSON');
    const object = await bash(`${helpers}\necho '{"receipt":{"fee":"1.00","n":[1]}}' | json receipt`);
    expect(object.stdout).toBe('{"fee":"1.00","n":[1]}\n');
    const cpfs = await bash(`${helpers}\nfor i in 1 2 3 4 5 6 7 8; do cpf; done`);
    for (const cpf of cpfs.stdout.trim().split('\n')) {
      expect(cpf).toMatch(/^\d{10}[04-9]$/);
    }
  });

  it('runs as printed after the banner, twice on one database', async () => {
    const banner = await ponte.waitForLog(() => true).then(() => ponte.output());
    const key = /Sandbox API key:\s+(sk_sandbox_\S+)/.exec(banner)?.[1];
    const operator = /Operator token:\s+(op_\S+)/.exec(banner)?.[1];
    expect(key).toBeDefined();
    expect(operator).toBeDefined();

    // The banner's "Try it" line, as printed.
    const tryIt = /Try it:\n([\s\S]*?)\n\n/.exec(banner)?.[1];
    expect(tryIt).toBeDefined();
    const tried = await bash(tryIt!.replace(/^ {2}/gm, ''));
    expect(tried.code).toBe(0);
    expect(JSON.parse(tried.stdout).id).toMatch(/^[0-9a-f-]{36}$/);

    const script = walkthroughBlocks(README)
      .join('\n')
      .replace(/^export PONTE_KEY=.*$/m, `export PONTE_KEY=${key}`)
      .replace(/^export PONTE=.*$/m, `export PONTE=${ponte.urls.sandbox}`)
      .replace(/^export PONTE_OPERATOR=.*$/m, `export PONTE_OPERATOR=${operator}`)
      .replace(/^export OPS=.*$/m, `export OPS=${ponte.urls.operator}`);
    expect(script).not.toContain('localhost:8081');
    for (const run of [1, 2]) {
      // run where a reader would: a folder of theirs, in which the walk must leave nothing behind
      const folder = mkdtempSync(join(tmpdir(), 'ponte-readme-cwd-'));
      const result = await bash(`set -euo pipefail\n${script}`, 240_000, folder);
      expect([run, result.code, result.stderr]).toEqual([run, 0, '']);
      expect(readdirSync(folder)).toEqual([]);
      rmSync(folder, { recursive: true });
      const lines = result.stdout.trim().split('\n');
      // Every answer printed on a line of its own: JSON (an object or a list), or a plain value (an id, a status).
      for (const line of lines) {
        if (line.startsWith('{') || line.startsWith('[')) expect(() => JSON.parse(line), line).not.toThrow();
        else expect(line, line).toMatch(/^[\w-]+$/);
      }
      // The off-ramp paid out, was returned, and the BRL paid out again: its receipt printed as JSON.
      expect(lines).toContain('SUCCESS');
      expect(lines).toContain('RETURNED');
      const receipt = JSON.parse(lines[lines.indexOf('RETURNED') + 1]!);
      expect(receipt.sourceCurrency).toBe('BRL');
      expect(receipt.sourceAmount).toBe('547.25');
      // The wallet walk ends with the balances: 250 deposited, 40.5 and 100 sent.
      const balances = JSON.parse(lines.at(-1)!);
      expect(balances.balances).toContainEqual({ currency: 'USDC', amount: expect.any(String) });
      // The webhook endpoint was registered, its secret rotated, and the endpoint deleted again.
      const rotated = lines
        .map((line) => (line.startsWith('{') ? JSON.parse(line) : {}))
        .find((answer) => answer.previousSecretExpiresAt);
      expect(rotated?.secret).toMatch(/^whsec_/);
      expect(lines).toContain('204');
    }
  }, 600_000);

  it("runs the SDK's walk as printed, twice on one database", async () => {
    const banner = await ponte.waitForLog(() => true).then(() => ponte.output());
    const key = /Sandbox API key:\s+(sk_sandbox_\S+)/.exec(banner)![1]!;
    const sdk = pathToFileURL(
      fileURLToPath(new URL('../../packages/sdk/src/index.ts', import.meta.url)),
    ).href;
    const source = sdkWalk(README);
    expect(source).toContain("from '@ponte/sdk'");
    const folder = mkdtempSync(join(tmpdir(), 'ponte-readme-sdk-'));
    try {
      // the package's name resolved to its sources here: the packed package is tested in packages/sdk
      writeFileSync(join(folder, 'walk.mts'), source.replace("'@ponte/sdk'", `'${sdk}'`));
      const tsx = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
      for (const run of [1, 2]) {
        const result = await bash(
          `PONTE_KEY=${key} PONTE=${ponte.urls.sandbox} node ${tsx} walk.mts`,
          240_000,
          folder,
        );
        expect([run, result.code, result.stderr]).toEqual([run, 0, '']);
        expect(result.stdout).toContain('IN_REVIEW');
        expect(result.stdout).toMatch(/currency: 'USDC'/);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 600_000);
});
