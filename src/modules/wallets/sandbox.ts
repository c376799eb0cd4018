/** Sandbox: a simulated inbound transfer to a customer's address, confirmed after the sandbox delay. */
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { BLOCKCHAINS, type Blockchain, type Stablecoin } from '../../core/currencies.ts';
import { formatDecimal, parseDecimal } from '../../core/decimal.ts';
import { AppError, invalidField, notFound } from '../../core/errors.ts';
import type { Database } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import { creditDeposit, recordInbound } from './deposits.ts';
import { presentChainTransaction } from './presenter.ts';
import { findChainTransaction, walletByAddress } from './repo.ts';
import { MAX_STABLECOIN_UNITS } from './transfers.ts';

export function createSandboxWalletService(deps: {
  db: Database;
  clock: Clock;
  chains: ChainRegistry;
  config: Pick<Config, 'screening'>;
}) {
  const { db, clock, chains, config } = deps;

  async function deposit(
    tenant: Tenant,
    address: string,
    input: {
      currency: Stablecoin;
      amount: string;
      blockchain?: Blockchain | undefined;
      from?: string | undefined;
    },
  ) {
    const amount = parseDecimal(input.amount, 6);
    if (amount <= 0n) throw invalidField('/body/amount', 'must be greater than zero');
    if (amount > MAX_STABLECOIN_UNITS) {
      throw invalidField('/body/amount', `must be at most ${formatDecimal(MAX_STABLECOIN_UNITS, 6)}`);
    }
    const candidates = input.blockchain
      ? [input.blockchain]
      : [chains.config.defaultChain, ...BLOCKCHAINS.filter((c) => c !== chains.config.defaultChain)];
    let wallet: Awaited<ReturnType<typeof walletByAddress>>;
    for (const chain of candidates) {
      wallet = await walletByAddress(db, tenant.environment, chain, address);
      if (wallet) break;
    }
    if (!wallet || wallet.project_id !== tenant.projectId) throw notFound('Wallet');
    const adapter = chains.get(tenant.environment, wallet.blockchain);
    if (!adapter.supports(input.currency)) {
      throw invalidField('/body/currency', `${input.currency} is not available on ${wallet.blockchain}`);
    }
    const problem = input.from === undefined ? null : adapter.addressProblem(input.from);
    if (problem) throw invalidField('/body/from', `${problem} on ${wallet.blockchain}`);
    const at = clock();
    return db.transaction(async (tx) => {
      const created = await recordInbound(
        tx,
        chains,
        tenant.environment,
        wallet.blockchain,
        {
          transactionHash: adapter.simulatedHash(),
          logIndex: 0,
          blockHash: `0x${randomBytes(32).toString('hex')}`,
          blockNumber: null,
          from: input.from === undefined ? adapter.addressAt(2 ** 31 - 1) : adapter.normalize(input.from),
          to: wallet.address,
          currency: input.currency,
          amount,
        },
        at,
        config.screening,
      );
      if (!created) throw new AppError('conflict', 'The address is not a wallet of this project');
      if (chains.config.sandboxConfirmationMs === 0) await creditDeposit(tx, chains, created, at);
      // read inside the transaction: the answer commits with the deposit (src/http/idempotency.ts)
      return presentChainTransaction(chains, (await findChainTransaction(tx, tenant, created))!);
    });
  }

  return { deposit };
}
