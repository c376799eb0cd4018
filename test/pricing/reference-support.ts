/**
 * What the market-reference tests share: a free port in the range set aside for them (47000-49999), a
 * PTAX simulator answering as the BCB's OData service does, and a node that accepts connections and never
 * answers.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';

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
