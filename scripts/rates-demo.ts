/**
 * `npm run rates:demo`: quotes from market data, end to end on one machine, as the README's "Market rates"
 * section describes. It starts anvil with three mock Chainlink feeds and a PTAX stand-in
 * (scripts/local-market.ts), starts Ponte (`node scripts/start.mjs`, an embedded database in a directory
 * of its own) pointed at them, creates a project and a production API key, asks for a quote, then makes
 * the BRL/USD feed stale and shows the 503 `rates_unavailable` with its `Retry-After`. Everything it
 * started is stopped and its data directory removed at the end, also on failure or Ctrl-C.
 *
 * Ports: free ones by default; `RATES_DEMO_PORT=4100` uses 4100 to 4105 instead.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LocalMarket, startLocalMarket } from './local-market.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const say = (line = '') => process.stdout.write(`${line}\n`);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function ports(): Promise<number[]> {
  const base = process.env.RATES_DEMO_PORT?.trim();
  if (base) {
    if (!/^\d{2,5}$/.test(base)) throw new Error('RATES_DEMO_PORT must be a port number');
    return [0, 1, 2, 3, 4, 5].map((n) => Number(base) + n);
  }
  const out: number[] = [];
  while (out.length < 6) {
    const port = await freePort();
    if (!out.includes(port)) out.push(port);
  }
  return out;
}

/** Polls `read` until `done` holds (every 250 ms), failing with `what` after `timeoutMs`. */
async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined && done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The fields of an answer the demo reads; it prints the rest as it comes. */
type Answer = { id?: string; key?: string; code?: string; [field: string]: unknown };

async function call(method: string, url: string, token: string, payload?: unknown) {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
    ...(payload ? { body: JSON.stringify(payload) } : {}),
  });
  const body = (await response.json().catch(() => ({}))) as Answer;
  return { status: response.status, headers: response.headers, body };
}

const show = (value: unknown) =>
  JSON.stringify(value, null, 2)
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');

async function main() {
  const [rpcPort, ptaxPort, production, sandbox, operator, dashboard] = await ports();
  const dataDir = mkdtempSync(join(tmpdir(), 'ponte-rates-demo-'));
  let market: LocalMarket | undefined;
  let ponte: ChildProcess | undefined;
  let output = '';
  const cleanUp = async () => {
    if (ponte && ponte.exitCode === null) {
      const exited = new Promise((resolve) => ponte!.once('exit', resolve));
      ponte.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
      if (ponte.exitCode === null) ponte.kill('SIGKILL');
    }
    await market?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const interrupted = () => {
    void cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    say(`1. anvil on 127.0.0.1:${rpcPort} with three mock Chainlink feeds, a PTAX stand-in on :${ptaxPort}`);
    market = await startLocalMarket({ rpcPort: rpcPort!, ptaxPort: ptaxPort! });
    for (const [feed, address] of Object.entries(market.feeds)) say(`   ${feed.padEnd(8)} ${address}`);
    say('   answers: BRL/USD 0.19, USDC/USD 1.0001, USDT/USD 1 (updated now); PTAX 5.2600 / 5.2606');

    const urls = {
      production: `http://127.0.0.1:${production}`,
      operator: `http://127.0.0.1:${operator}`,
    };
    const operatorToken = `rates-demo-${Date.now()}-operator-token-for-this-run`;
    const env: NodeJS.ProcessEnv = {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PONTE_'))),
      DATABASE_URL: '',
      REDIS_URL: '',
      PONTE_DATA_DIR: dataDir,
      PONTE_PRODUCTION_URL: urls.production,
      PONTE_SANDBOX_URL: `http://127.0.0.1:${sandbox}`,
      PONTE_OPERATOR_URL: urls.operator,
      PONTE_DASHBOARD_URL: `http://127.0.0.1:${dashboard}`,
      PONTE_OPERATOR_TOKEN: operatorToken,
      PONTE_LOG_LEVEL: 'warn',
      ...market.env,
      PONTE_RATES_SPREAD_BPS: 'BRL/USDC=50',
      // read the feeds every 2 s, so that the stale round below is seen within moments
      PONTE_RATES_REFRESH_S: '2',
    };
    say();
    say(`2. Ponte (npm start) on ${urls.production}, operator API on ${urls.operator}, data in ${dataDir}`);
    say(
      `   PONTE_RATES_SOURCE=chainlink PONTE_CHAIN_ETHEREUM_RPC_URL=${market.rpcUrl} PONTE_RATES_SPREAD_BPS=BRL/USDC=50`,
    );
    say(`   PONTE_RATES_FEEDS=${market.env.PONTE_RATES_FEEDS}`);
    ponte = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    ponte.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    ponte.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    const ponteExited = new Promise<never>((_, reject) =>
      ponte!.once('exit', (code) => reject(new Error(`Ponte exited with ${code}:\n${output.slice(-4000)}`))),
    );
    ponteExited.catch(() => undefined);
    await Promise.race([
      until(
        'Ponte to be ready',
        () => fetch(`${urls.production}/readyz`),
        (r) => r.ok,
        180_000,
      ),
      ponteExited,
    ]);

    const project = await call('POST', `${urls.operator}/operator/projects`, operatorToken, {
      name: 'Market rates demo',
    });
    const key = await call(
      'POST',
      `${urls.operator}/operator/projects/${project.body.id}/api-keys`,
      operatorToken,
      {
        environment: 'production',
      },
    );
    if (key.status !== 201) throw new Error(`API key: ${key.status} ${JSON.stringify(key.body)}`);
    const apiKey = String(key.body.key);
    const quoteBody = {
      type: 'LOCKED',
      sourceCurrency: 'BRL',
      targetCurrency: 'USDC',
      sourceAmount: '1000.00',
    };

    say();
    say(
      '3. POST /exchange-rates {"type":"LOCKED","sourceCurrency":"BRL","targetCurrency":"USDC","sourceAmount":"1000.00"}',
    );
    const quote = await until(
      'the first reading of the feeds',
      () => call('POST', `${urls.production}/exchange-rates`, apiKey, quoteBody),
      (r) => r.status === 201,
      30_000,
    );
    say(`   ${quote.status}`);
    say(show(quote.body));
    say(
      '   the mid is BRL/USD ÷ USDC/USD = 0.19 ÷ 1.0001; baseRate is that less the 50 bps spread, then fees',
    );
    const reference = await call('GET', `${urls.production}/exchange-rates/reference?pair=BRL/USDC`, apiKey);
    say();
    say('   GET /exchange-rates/reference?pair=BRL/USDC');
    say(show(reference.body));

    say();
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    say(`4. a new BRL/USD round updated ${twoDaysAgo.toISOString()}: older than its maximum age (129600 s)`);
    await market.setRound('BRL/USD', 19_000_000n, twoDaysAgo);
    const refused = await until(
      'the stale feed to be seen',
      () => call('POST', `${urls.production}/exchange-rates`, apiKey, quoteBody),
      (r) => r.status !== 201,
      30_000,
    );
    say(`   POST /exchange-rates → ${refused.status}, Retry-After: ${refused.headers.get('retry-after')}`);
    say(`   content-type: ${refused.headers.get('content-type')}`);
    say(show(refused.body));
    if (refused.status !== 503 || refused.body?.code !== 'rates_unavailable') {
      throw new Error(`expected 503 rates_unavailable, got ${refused.status}`);
    }
    say();
    say('Done: stopping Ponte and anvil, removing the data directory.');
  } finally {
    await cleanUp();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    say(`\nrates demo FAILED: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
