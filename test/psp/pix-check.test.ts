/**
 * `npm run pix:check`, the pre-flight before going live, against the simulator: "ready" and exit 0 when
 * everything a live rail needs works, and each fault it must name with its fix — wrong secret, an
 * untrusted PSP certificate, a missing scope, a webhook the PSP cannot reach, an address that takes
 * requests without the PSP's certificate.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePspConfig } from '../../src/rails/pix/psp/config.ts';
import { preflight, report } from '../../src/rails/pix/psp/preflight.ts';
import { type IsolatedServer, startIsolatedServer } from '../transactions/support.ts';
import { EFI_SCOPES } from './efi-schemas.ts';
import type { PspSimulator } from './simulator.ts';
import { pspEnv, startSimulator, testCertificates, WEBHOOK_URL } from './support.ts';
import { startTerminator, type Terminator } from './terminator.ts';

const run = promisify(execFile);

let simulator: PspSimulator;
let terminator: Terminator;
let server: IsolatedServer;

beforeAll(async () => {
  simulator = await startSimulator();
  terminator = await startTerminator(testCertificates(), new URL(WEBHOOK_URL).pathname, async (request) => {
    const answer = await server.production.inject({
      method: 'POST',
      url: request.path,
      payload: request.body,
    });
    return { status: answer.statusCode, body: answer.body };
  });
  server = await startIsolatedServer({
    workers: false,
    env: pspEnv(simulator, { PONTE_PIX_WEBHOOK_URL: terminator.url }),
  });
});
afterAll(async () => {
  await server?.close();
  await terminator?.close();
  await simulator?.close();
});

const env = (overrides: NodeJS.ProcessEnv = {}) =>
  pspEnv(simulator, { PONTE_PIX_WEBHOOK_URL: terminator.url, ...overrides });
const check = async (overrides: NodeJS.ProcessEnv = {}) => {
  const findings = await preflight(parsePspConfig(env(overrides), 'PONTE_PIX_')!);
  return { findings, failed: findings.filter((f) => !f.ok), text: report(findings, 'production') };
};

describe('npm run pix:check', () => {
  it('prints every check and "ready", exit 0, when the rail can go live', async () => {
    const { stdout } = await run('npx', ['tsx', 'scripts/pix-check.ts'], {
      env: { ...process.env, ...env() },
    });
    expect(stdout).toMatch(/ok +client certificate/);
    expect(stdout).toMatch(/ok +scope gn\.pix\.send\.read: granted/);
    expect(stdout).toMatch(/ok +webhook registered/);
    expect(stdout).toMatch(/ok +webhook requires the PSP certificate/);
    expect(stdout).toMatch(/ok +sent PIX listed/);
    expect(stdout.trim().split('\n').at(-1)).toBe('ready');
    expect(simulator.webhooks.get(env().PONTE_PIX_KEY!)?.url).toBe(terminator.url);
  });

  it('names wrong client credentials, exit 1', async () => {
    const failure = await run('npx', ['tsx', 'scripts/pix-check.ts'], {
      env: { ...process.env, ...env({ PONTE_PIX_CLIENT_SECRET: 'wrong' }) },
    }).catch((error: { code: number; stdout: string }) => error);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stdout: string }).stdout).toMatch(/FAIL +credentials: .*PONTE_PIX_CLIENT_SECRET/);
    expect((failure as { stdout: string }).stdout).toMatch(/not ready: 1 problem/);
  });

  it('names a PSP server certificate the configured CAs do not vouch for', async () => {
    const { failed } = await check({ PONTE_PIX_PSP_CA: testCertificates().strangerPemPath });
    expect(failed).toEqual([
      expect.objectContaining({
        check: 'PSP server certificate',
        detail: expect.stringMatching(/PONTE_PIX_PSP_CA/),
      }),
    ]);
  });

  it('names a client certificate the PSP did not issue', async () => {
    const { failed } = await check({
      PONTE_PIX_CERT: testCertificates().strangerPemPath,
      PONTE_PIX_CERT_PASSPHRASE: '',
    });
    expect(failed).toEqual([
      expect.objectContaining({
        check: 'client certificate',
        detail: expect.stringMatching(/PONTE_PIX_CERT/),
      }),
    ]);
  });

  it('names each scope the application lacks and what stops without it', async () => {
    simulator.grant(EFI_SCOPES.filter((scope) => scope !== 'gn.pix.send.read'));
    try {
      const { failed } = await check();
      expect(failed.map((f) => f.check)).toEqual(['scope gn.pix.send.read', 'sent PIX listed']);
      expect(failed[0]!.detail).toMatch(/can never be looked up/);
    } finally {
      simulator.grant(EFI_SCOPES);
    }
  });

  it('names a webhook address the PSP cannot reach (webhook_invalido) and the terminator fix', async () => {
    const { failed } = await check({
      PONTE_PIX_KEY: 'outra-chave@example.com',
      PONTE_PIX_WEBHOOK_URL: 'https://localhost:9/hook',
    });
    expect(failed.map((f) => f.check)).toEqual(['webhook reachable by the PSP']);
    expect(failed[0]!.detail).toMatch(/webhook_invalido/);
    expect(failed[0]!.detail).toMatch(/\/hook\/pix/);
  });

  it('names an address that takes requests without the PSP client certificate', async () => {
    // the terminator left out: the address answers anyone
    const open = await startTerminator(testCertificates(), '/open', async () => ({
      status: 200,
      body: '{}',
    }));
    const { createServer } = await import('node:https');
    const plain = createServer(
      { key: testCertificates().serverKey, cert: testCertificates().serverCert },
      (_req, res) => res.writeHead(200).end('{}'),
    );
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const port = (plain.address() as { port: number }).port;
    try {
      const { failed } = await check({
        PONTE_PIX_KEY: 'aberta@example.com',
        PONTE_PIX_WEBHOOK_URL: `https://localhost:${port}/open`,
      });
      expect(failed.map((f) => f.check)).toContain('webhook reachable by the PSP');
      expect(failed.map((f) => f.check)).toContain('webhook requires the PSP certificate');
    } finally {
      plain.closeAllConnections();
      plain.close();
      await open.close();
    }
  });
});
