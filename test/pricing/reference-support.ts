/**
 * What the market-reference tests share: a free port in the range set aside for them (47000-49999), a
 * PTAX simulator answering as the BCB's OData service does, and a node that accepts connections and never
 * answers.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { Address } from 'viem';
import type { Anvil } from '../chains/anvil.ts';
import { client, startTestServer } from '../helpers/server.ts';

const FROM = 47_000;
const TO = 49_999;

async function listenInRange<T extends Server | TcpServer>(server: T): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = FROM + Math.floor(Math.random() * (TO - FROM + 1));
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) return port;
  }
  throw new Error(`no free port between ${FROM} and ${TO}`);
}

/** A port in the range that nothing listens on right now. */
export async function portInRange(): Promise<number> {
  const probe = createTcpServer();
  const port = await listenInRange(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A bulletin as the PTAX service writes it (`CotacaoDolarDia`), figures as JSON numbers. */
export function ptaxAnswer(bulletins: { buy: string; sell: string; at: string }[]): string {
  const value = bulletins
    .map((b) => `{"cotacaoCompra":${b.buy},"cotacaoVenda":${b.sell},"dataHoraCotacao":"${b.at}"}`)
    .join(',');
  return `{"@odata.context":"https://was-p.bcnet.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata$metadata#_CotacaoDolarDia(cotacaoCompra,cotacaoVenda,dataHoraCotacao)","value":[${value}]}`;
}

export type PtaxSimulator = {
  url: string;
  /** Bulletins by day as the service's `MM-DD-YYYY`; a day without one answers an empty `value`. */
  days: Map<string, { buy: string; sell: string; at: string }>;
  requests: string[];
  status: number;
  close(): Promise<void>;
};

export async function startPtaxSimulator(): Promise<PtaxSimulator> {
  const simulator = { days: new Map(), requests: [] as string[], status: 200 } as PtaxSimulator;
  const server = createServer((request, response) => {
    const url = decodeURIComponent(request.url ?? '');
    simulator.requests.push(url);
    const day = /CotacaoDolarDia\(dataCotacao=@dataCotacao\)\?@dataCotacao='(\d{2}-\d{2}-\d{4})'/.exec(
      url,
    )?.[1];
    if (simulator.status !== 200 || !day) {
      response.writeHead(simulator.status === 200 ? 400 : simulator.status).end('{}');
      return;
    }
    const bulletin = simulator.days.get(day);
    response
      .writeHead(200, { 'content-type': 'application/json;odata.metadata=minimal' })
      .end(ptaxAnswer(bulletin ? [bulletin] : []));
  });
  const port = await listenInRange(server);
  simulator.url = `http://127.0.0.1:${port}/olinda/servico/PTAX/versao/v1/odata`;
  simulator.close = () => new Promise((resolve) => server.close(() => resolve()));
  return simulator;
}

/** A "node" that takes the connection and never answers: reads through it must time out. */
export async function startSilentNode(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const server = createTcpServer((socket) => sockets.add(socket));
  const port = await listenInRange(server);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The three feeds a market reference reads, deployed on `node`, and the server settings that point at them. */
export type MarketFeeds = { brlUsd: Address; usdcUsd: Address; usdtUsd: Address; env: NodeJS.ProcessEnv };

/**
 * BRL/USD 0.19, USDC/USD 1.0001 and USDT/USD 1 (8 decimals, updated at `at`), read through `node`, with PTAX
 * from `ptax` and no fees, so that a quote's figures are the reference's alone.
 */
export async function marketFeeds(node: Anvil, ptax: PtaxSimulator, at = new Date()): Promise<MarketFeeds> {
  const brlUsd = await node.deployFeed(8, 'BRL / USD');
  const usdcUsd = await node.deployFeed(8, 'USDC / USD');
  const usdtUsd = await node.deployFeed(8, 'USDT / USD');
  await node.setRound(brlUsd, 19_000_000n, at); // 0.19
  await node.setRound(usdcUsd, 100_010_000n, at); // 1.0001
  await node.setRound(usdtUsd, 100_000_000n, at);
  return {
    brlUsd,
    usdcUsd,
    usdtUsd,
    env: {
      PONTE_RATES_SOURCE: 'chainlink',
      PONTE_CHAIN_ETHEREUM_RPC_URL: node.url,
      PONTE_RATES_FEEDS: `BRL/USD=${brlUsd},USDC/USD=${usdcUsd},USDT/USD=${usdtUsd}`,
      PONTE_RATES_PTAX_URL: ptax.url,
      PONTE_ONRAMP_FEE_BPS: '0',
      PONTE_TRANSACTION_MIN_FEE: '0',
    },
  };
}

/**
 * A test server of its own database quoting from mock feeds on `node` and a PTAX stand-in, with the
 * settings `env` builds from the feeds; a tenant's clients on both listeners. `close` ends all three.
 */
export async function startMarketServer(node: Anvil, env: (feeds: MarketFeeds) => NodeJS.ProcessEnv) {
  const ptax = await startPtaxSimulator();
  const feeds = await marketFeeds(node, ptax);
  const server = await startTestServer({ ownDatabase: true, env: env(feeds) });
  const tenant = await server.newTenant();
  return {
    server,
    ptax,
    feeds,
    production: client(server.production, tenant.productionKey),
    sandbox: client(server.sandbox, tenant.sandboxKey),
    async close() {
      await server.close();
      await ptax.close();
      node.stop();
    },
  };
}
