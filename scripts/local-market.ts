/**
 * A market to point Ponte at on one machine, with no network: anvil (the local EVM node the project
 * installs from npm, `@foundry-rs/anvil`) with three mock Chainlink feeds (`MockAggregatorV3`, the
 * AggregatorV3 interface: https://docs.chain.link/data-feeds/api-reference) deployed from the checked-in
 * artifact, and a stand-in for the BCB's PTAX service answering `CotacaoDolarDia` in the service's JSON
 * shape (https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/aplicacao#!/recursos). Used by the README's
 * demo (`npm run rates:demo`) and by `npm run bench -- quotes`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { untilNodeAnswers } from './node-ready.ts';

/** anvil's first funded development account (its published test key: never a real one). */
const DEPLOYER_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

const feedArtifact = JSON.parse(
  readFileSync(new URL('../test/chains/contracts/MockAggregatorV3.json', import.meta.url), 'utf8'),
) as { abi: Abi; bytecode: Hex };

/** The anvil binary the npm package installed for this platform (else one on the PATH). */
export function anvilBinary(): string {
  const require = createRequire(import.meta.url);
  const platform = `@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
  try {
    return require.resolve(`${platform}/bin/anvil`);
  } catch {
    return 'anvil';
  }
}

/** The feeds' answers, 8 decimals as Chainlink's USD feeds: BRL/USD 0.19, USDC/USD 1.0001, USDT/USD 1. */
export const START_ANSWERS = { 'BRL/USD': 19_000_000n, 'USDC/USD': 100_010_000n, 'USDT/USD': 100_000_000n };
type Feed = keyof typeof START_ANSWERS;

export type LocalMarket = {
  rpcUrl: string;
  ptaxUrl: string;
  feeds: Record<Feed, Address>;
  /** What points Ponte's production quotes at this market (`PONTE_RATES_*`). */
  env: Record<string, string>;
  /** A new round of `feed` with `answer` (8 decimals) updated at `updatedAt`. */
  setRound(feed: Feed, answer: bigint, updatedAt: Date): Promise<void>;
  stop(): Promise<void>;
};

async function listen(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** PTAX's answer for one day as the service writes it: 5.2600 / 5.2606 on weekdays, none on weekends. */
function ptaxServer(): Server {
  return createServer((request, response) => {
    const url = decodeURIComponent(request.url ?? '');
    const day = /CotacaoDolarDia\(dataCotacao=@dataCotacao\)\?@dataCotacao='(\d{2})-(\d{2})-(\d{4})'/.exec(
      url,
    );
    if (!day) {
      response.writeHead(400, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    const weekday = new Date(Date.UTC(Number(day[3]), Number(day[1]) - 1, Number(day[2]))).getUTCDay();
    const value =
      weekday === 0 || weekday === 6
        ? ''
        : `{"cotacaoCompra":5.2600,"cotacaoVenda":5.2606,"dataHoraCotacao":"${day[3]}-${day[1]}-${day[2]} 13:10:24.123"}`;
    response
      .writeHead(200, { 'content-type': 'application/json;odata.metadata=minimal' })
      .end(
        `{"@odata.context":"https://was-p.bcnet.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata$metadata#_CotacaoDolarDia(cotacaoCompra,cotacaoVenda,dataHoraCotacao)","value":[${value}]}`,
      );
  });
}

/**
 * Starts anvil on `rpcPort` and the PTAX stand-in on `ptaxPort` (0: any free port), deploys the three
 * feeds and gives each a first round updated now.
 */
export async function startLocalMarket(ports: { rpcPort: number; ptaxPort: number }): Promise<LocalMarket> {
  const rpcUrl = `http://127.0.0.1:${ports.rpcPort}`;
  const anvil: ChildProcess = spawn(
    anvilBinary(),
    ['--host', '127.0.0.1', '--port', String(ports.rpcPort), '--silent'],
    { stdio: 'ignore' },
  );
  const exited = new Promise<Error>((resolve) => {
    anvil.once('error', resolve);
    anvil.once('exit', (code) => resolve(new Error(`anvil exited with ${code}`)));
  });
  const ptax = ptaxServer();
  const stop = async () => {
    anvil.kill();
    if (ptax.listening) await new Promise((resolve) => ptax.close(resolve));
  };
  try {
    const reader = createPublicClient({ chain: foundry, transport: http(rpcUrl) });
    const deployer = createWalletClient({
      chain: foundry,
      account: privateKeyToAccount(DEPLOYER_KEY),
      transport: http(rpcUrl),
    });
    await untilNodeAnswers(anvil, exited, () => reader.getChainId());
    const ptaxPort = await listen(ptax, ports.ptaxPort);
    const deploy = async (description: string): Promise<Address> => {
      const hash = await deployer.deployContract({
        abi: feedArtifact.abi,
        bytecode: feedArtifact.bytecode,
        args: [8, description],
      });
      const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      return getAddress(receipt.contractAddress!);
    };
    const feeds: Record<Feed, Address> = {
      'BRL/USD': await deploy('BRL / USD'),
      'USDC/USD': await deploy('USDC / USD'),
      'USDT/USD': await deploy('USDT / USD'),
    };
    const setRound = async (feed: Feed, answer: bigint, updatedAt: Date) => {
      const hash = await deployer.writeContract({
        address: feeds[feed],
        abi: feedArtifact.abi,
        functionName: 'setRound',
        args: [answer, BigInt(Math.floor(updatedAt.getTime() / 1000))],
      });
      await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    };
    const now = new Date();
    for (const [feed, answer] of Object.entries(START_ANSWERS) as [Feed, bigint][]) {
      await setRound(feed, answer, now);
    }
    const ptaxUrl = `http://127.0.0.1:${ptaxPort}/olinda/servico/PTAX/versao/v1/odata`;
    return {
      rpcUrl,
      ptaxUrl,
      feeds,
      env: {
        PONTE_RATES_SOURCE: 'chainlink',
        PONTE_RATES_CHAIN: 'ETHEREUM',
        PONTE_CHAIN_ETHEREUM_RPC_URL: rpcUrl,
        PONTE_RATES_FEEDS: Object.entries(feeds)
          .map(([feed, address]) => `${feed}=${address}`)
          .join(','),
        PONTE_RATES_PTAX_URL: ptaxUrl,
      },
      setRound,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
