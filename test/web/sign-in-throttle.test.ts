/**
 * Sign-in throttling holds under concurrency: attempts are counted before the password or code is
 * checked, so no more than 5 per account and 30 per address are ever checked, however many arrive at
 * once (one process, and two processes over one PostgreSQL database); and one TOTP code completes one
 * sign-in only.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboardApp } from '../../src/app.ts';
import * as repo from '../../src/modules/web-users/repo.ts';
import { createWebUserService } from '../../src/modules/web-users/service.ts';
import {
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ADDRESS,
  resolveSession,
} from '../../src/modules/web-users/sessions.ts';
import { startTestServer, type TestServer, usingPostgres } from '../helpers/server.ts';
import { freePort, type PonteProcess, spawnPonte, stopPonte } from '../ops/ponte-process.ts';

const PASSWORD = 'a long enough password';
const COOKIE = 'ponte_dashboard_session';

let server: TestServer;
let dashboard: FastifyInstance;
let users: ReturnType<typeof createWebUserService>;
let projectId: string;
const processes: PonteProcess[] = [];

beforeAll(async () => {
  server = await startTestServer({ workers: false });
  dashboard = await buildDashboardApp(server.ctx);
  users = createWebUserService({ ...server.ctx, encryptionKey: server.ctx.instanceKeys.encryption });
  projectId = (await server.newTenant('Sign-in partner')).projectId;
});
afterAll(async () => {
  await Promise.all(processes.map(stopPonte));
  await dashboard?.close();
  await server?.close();
});

/** An address of its own for each test, so that the tests' counts do not meet. */
const newAddress = () =>
  `10.${(Math.random() * 250) | 0}.${(Math.random() * 250) | 0}.${(Math.random() * 250) | 0}`;

/** A dashboard user with a password, through an invitation. */
async function member(): Promise<string> {
  const email = `user-${randomUUID()}@partner.example`;
  const invited = await users.invite(
    { id: null, name: 'test' },
    { surface: 'dashboard', projectId, role: 'admin' },
    email,
  );
  await users.acceptInvite('dashboard', invited.inviteUrl.split('/').pop()!, PASSWORD);
  return email;
}

/** A member with a second factor enabled, and its secret. */
async function memberWithTotp(): Promise<{ email: string; secret: string }> {
  const email = await member();
  const user = (await repo.findUserByEmail(server.ctx.db, 'dashboard', email))!;
  const secret = users.proposeTotp();
  await users.enableTotp(user, secret, await generate({ secret }));
  // the sign-ins below use codes of the current step: forget the step the enabling code used
  await server.ctx.db.query('UPDATE web_users SET totp_last_step = NULL WHERE id = $1', [user.id]);
  return { email, secret };
}

function signIn(email: string, password: string, remoteAddress: string) {
  return dashboard.inject({
    method: 'POST',
    url: '/sign-in',
    remoteAddress,
    payload: new URLSearchParams({ email, password, next: '/' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

/** A pending (second-factor) session: its cookie value and CSRF token. */
async function pendingSession(email: string, address: string) {
  const result = await users.signIn('dashboard', email, PASSWORD, address);
  if (result.kind !== 'second-factor') throw new Error(`expected a second factor, got ${result.kind}`);
  const session = (await resolveSession(server.ctx.db, server.ctx.clock, result.token))!;
  return { token: result.token, csrf: session.csrfToken };
}

function sendCode(session: { token: string; csrf: string }, code: string, remoteAddress: string) {
  return dashboard.inject({
    method: 'POST',
    url: '/sign-in/code',
    remoteAddress,
    cookies: { [COOKIE]: session.token },
    payload: new URLSearchParams({ _csrf: session.csrf, code }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

const statuses = (answers: { statusCode: number }[]) => {
  const count = new Map<number, number>();
  for (const a of answers) count.set(a.statusCode, (count.get(a.statusCode) ?? 0) + 1);
  return Object.fromEntries(count);
};

describe('sign-in attempts counted before they are checked', () => {
  it('checks 5 of 40 concurrent wrong passwords for one account, the rest 429', async () => {
    const email = await member();
    const address = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => signIn(email, 'wrong password!!', address)),
    );
    expect(statuses(answers)).toEqual({ 401: MAX_FAILURES_PER_ACCOUNT, 429: 40 - MAX_FAILURES_PER_ACCOUNT });
    // the right password is refused too while the account is throttled
    expect((await signIn(email, PASSWORD, newAddress())).statusCode).toBe(429);
  });

  it('checks 30 of 40 concurrent wrong passwords from one address over 40 accounts, the rest 429', async () => {
    const address = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        signIn(`nobody-${randomUUID()}@partner.example`, 'wrong password!!', address),
      ),
    );
    expect(statuses(answers)).toEqual({ 401: MAX_FAILURES_PER_ADDRESS, 429: 40 - MAX_FAILURES_PER_ADDRESS });
  });

  it('checks 5 of 150 concurrent TOTP codes on one pending session, the rest 429', async () => {
    const { email, secret } = await memberWithTotp();
    const address = newAddress();
    const session = await pendingSession(email, address);
    const right = await generate({ secret });
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
    const answers = await Promise.all(Array.from({ length: 150 }, () => sendCode(session, wrong, address)));
    expect(statuses(answers)).toEqual({ 401: MAX_FAILURES_PER_ACCOUNT, 429: 150 - MAX_FAILURES_PER_ACCOUNT });
  });

  it('lets a right password through and does not count it, a full sign-in forgets earlier failures', async () => {
    const email = await member();
    const address = newAddress();
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT - 1; i++) {
      expect((await signIn(email, 'wrong password!!', address)).statusCode).toBe(401);
    }
    expect((await signIn(email, PASSWORD, address)).statusCode).toBe(303);
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
      expect((await signIn(email, 'wrong password!!', address)).statusCode).toBe(401);
    }
    expect((await signIn(email, 'wrong password!!', address)).statusCode).toBe(429);
  });
});

describe('one TOTP code, one sign-in', () => {
  it('refuses a code already used to complete a sign-in, on another pending session', async () => {
    const { email, secret } = await memberWithTotp();
    const address = newAddress();
    const code = await generate({ secret });
    const first = await sendCode(await pendingSession(email, address), code, address);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).not.toMatch(/sign-in/);
    const again = await sendCode(await pendingSession(email, address), code, address);
    expect(again.statusCode).toBe(401);
  });

  it('completes one of two concurrent sign-ins with the same code', async () => {
    const { email, secret } = await memberWithTotp();
    const address = newAddress();
    const [a, b] = [await pendingSession(email, address), await pendingSession(email, address)];
    const code = await generate({ secret });
    const answers = await Promise.all([sendCode(a, code, address), sendCode(b, code, address)]);
    expect(statuses(answers)).toEqual({ 303: 1, 401: 1 });
  });
});

describe.runIf(usingPostgres())('sign-in throttling on two processes', () => {
  it('checks 5 of 40 concurrent wrong passwords for one account sent to two processes', async () => {
    const spawn = async () => {
      const port = await freePort();
      return { ponte: await spawnPonte({ PONTE_DASHBOARD_URL: `http://127.0.0.1:${port}` }), port };
    };
    const [one, two] = await Promise.all([spawn(), spawn()]);
    processes.push(one.ponte, two.ponte);
    const email = await member();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`http://127.0.0.1:${(i % 2 === 0 ? one : two).port}/sign-in`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ email, password: 'wrong password!!', next: '/' }).toString(),
        }).then(async (r) => {
          await r.text();
          return { statusCode: r.status };
        }),
      ),
    );
    expect(statuses(answers)).toEqual({ 401: MAX_FAILURES_PER_ACCOUNT, 429: 40 - MAX_FAILURES_PER_ACCOUNT });
  }, 240_000);
});
