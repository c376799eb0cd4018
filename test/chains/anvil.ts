/**
 * A real local EVM node for tests: anvil from the `@foundry-rs/anvil` npm package, on a free port, with
 * the test ERC-20 (six decimals) deployed from the checked-in artifact built by
 * `scripts/build-test-token.mjs`. `startAnvil` resolves null (with the reason) when the node cannot start
 * here, so that the tests that need it are skipped and say why.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  type Abi,
  type Address,
  createTestClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  publicActions,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { untilNodeAnswers } from '../../scripts/node-ready.ts';
import { freePort } from '../ops/ponte-process.ts';

/** anvil's first funded development account (public test key). */
const DEPLOYER_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

const artifact = JSON.parse(readFileSync(new URL('./contracts/TestToken.json', import.meta.url), 'utf8')) as {
  abi: Abi;
  bytecode: Hex;
};
export const tokenAbi = artifact.abi;
const feedArtifact = JSON.parse(
  readFileSync(new URL('./contracts/MockAggregatorV3.json', import.meta.url), 'utf8'),
) as { abi: Abi; bytecode: Hex };

function anvilBinary(): string {
  const require = createRequire(import.meta.url);
  const platform = `@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
  try {
    return require.resolve(`${platform}/bin/anvil`);
  } catch {
    return 'anvil';
  }
}

export type Anvil = Awaited<ReturnType<typeof launch>>;

async function launch(options: { port?: number } = {}) {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    anvilBinary(),
    ['--host', '127.0.0.1', '--port', String(port), '--silent'],
    {
      stdio: 'ignore',
    },
  );
  const exited = new Promise<Error>((resolve) => {
    child.once('error', resolve);
    child.once('exit', (code) => resolve(new Error(`anvil exited with ${code}`)));
  });
  const client = createTestClient({ chain: foundry, mode: 'anvil', transport: http(url) }).extend(
    publicActions,
  );
  const deployer = createWalletClient({
    chain: foundry,
    account: privateKeyToAccount(DEPLOYER_KEY),
    transport: http(url),
  }).extend(publicActions);
  try {
    await untilNodeAnswers(child, exited, () => client.getChainId());
  } catch (error) {
    child.kill();
    throw error;
  }

  async function deployToken(name: string, symbol: string): Promise<Address> {
    const hash = await deployer.deployContract({
      abi: tokenAbi,
      bytecode: artifact.bytecode,
      args: [name, symbol],
    });
    const receipt = await deployer.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    return getAddress(receipt.contractAddress!);
  }

  /** A price feed (MockAggregatorV3) with `decimals` digits and no round yet. */
  async function deployFeed(decimals: number, description: string): Promise<Address> {
    const hash = await deployer.deployContract({
      abi: feedArtifact.abi,
      bytecode: feedArtifact.bytecode,
      args: [decimals, description],
    });
    const receipt = await deployer.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    return getAddress(receipt.contractAddress!);
  }

  return {
    url,
    client,
    deployer,
    deployToken,
    deployFeed,
    /** Starts a new round of a mock feed with `answer` (at the feed's decimals) updated at `updatedAt`. */
    async setRound(feed: Address, answer: bigint, updatedAt: Date): Promise<void> {
      const hash = await deployer.writeContract({
        address: feed,
        abi: feedArtifact.abi,
        functionName: 'setRound',
        args: [answer, BigInt(Math.floor(updatedAt.getTime() / 1000))],
      });
      await deployer.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    },
    async balanceOf(token: Address, owner: string): Promise<bigint> {
      return (await client.readContract({
        address: token,
        abi: tokenAbi,
        functionName: 'balanceOf',
        args: [owner as Address],
      })) as bigint;
    },
    /** Mints to `to` from outside Ponte (a Transfer from the zero address); mined at once. */
    async mint(token: Address, to: string, amount: bigint): Promise<Hex> {
      const hash = await deployer.writeContract({
        address: token,
        abi: tokenAbi,
        functionName: 'mint',
        args: [to as Address, amount],
      });
      await deployer.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      return hash;
    },
    /** A token transfer from the deployer's own balance; mined at once. */
    async transfer(token: Address, to: string, amount: bigint): Promise<Hex> {
      const hash = await deployer.writeContract({
        address: token,
        abi: tokenAbi,
        functionName: 'transfer',
        args: [to as Address, amount],
      });
      await deployer.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      return hash;
    },
    async fundGas(to: string) {
      await client.setBalance({ address: to as Address, value: 10n ** 20n });
    },
    mine: (blocks: number) => client.mine({ blocks }),
    snapshot: () => client.snapshot(),
    revert: (id: Hex) => client.revert({ id }),
    stop() {
      child.kill();
    },
  };
}

export async function startAnvil(
  options: { port?: number } = {},
): Promise<{ node: Anvil | null; reason: string | null }> {
  try {
    return { node: await launch(options), reason: null };
  } catch (error) {
    return { node: null, reason: (error as Error).message };
  }
}
