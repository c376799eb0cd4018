import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { bearerSecurity, IdParams, problems } from '../../http/schemas.ts';
import type { Environment } from '../../lib/environment.ts';
import { createSandboxWalletService } from './sandbox.ts';
import { SandboxWalletDepositBody, TransferBody, WalletAddressParams, WalletList } from './schema.ts';
import { createWalletService } from './service.ts';
import { createTransferService } from './transfers.ts';

export const walletRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext; environment: Environment }> = async (
  app,
  { ctx, environment },
) => {
  const wallets = createWalletService(ctx);
  const transfers = createTransferService(ctx);

  app.get(
    '/customers/:id/wallets',
    {
      schema: {
        tags: ['wallets'],
        summary: "A customer's wallets: one per blockchain, with its address and balances",
        description:
          'Wallets exist once the customer is APPROVED (before that the list is empty). Balances come from ' +
          'the ledger; per currency they add up to `GET /customers/{id}/balances`.',
        security: bearerSecurity,
        params: IdParams,
        response: { 200: WalletList, ...problems(400, 401, 404, 429) },
      },
    },
    async (request) => wallets.list(request.tenant, request.params.id),
  );

  app.post(
    '/transactions/transfer',
    {
      schema: {
        tags: ['transactions'],
        summary: 'Send stablecoin to another customer of the project or to an external address',
        description:
          'To a customer (by id, or by one of their addresses) the balance moves at once: SUCCESS. To an ' +
          'external address, validated for the chain, the amount leaves the wallet and is sent on chain: ' +
          'PROCESSING, then SUCCESS after the chain confirmations, or FAILED with the amount back. The ' +
          "sender's wallet on the chain must hold the amount (else 422 insufficient_funds). To an external " +
          'address worth PONTE_TRAVEL_RULE_THRESHOLD USD or more (default 1000), `travelRule` is required (400 ' +
          'otherwise; `vasp` when walletType is HOSTED); it is stored as IVMS101 and shown on the transaction. ' +
          'A destination on a sanctions list in force: 422 sanctioned_address. A sender on compliance hold: 409 ' +
          'compliance_hold. A beneficiary whose name may be listed holds the transfer (PROCESSING, amount reserved, ' +
          'nothing sent) until compliance clears it (sent) or confirms it (FAILED, amount back).',
        security: bearerSecurity,
        body: TransferBody,
        response: { 201: Type.Ref('Transaction'), ...problems(400, 401, 404, 409, 415, 422, 429, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await transfers.create(request.tenant, request.body)),
  );

  if (environment !== 'sandbox') return;
  const sandbox = createSandboxWalletService(ctx);

  app.post(
    '/sandbox/wallets/:address/deposit',
    {
      schema: {
        tags: ['sandbox'],
        summary: "Simulate a stablecoin transfer from outside to a customer's address",
        description:
          'Creates a DEPOSIT transaction (PROCESSING), credited to the wallet after the simulated confirmations.',
        security: bearerSecurity,
        params: WalletAddressParams,
        body: SandboxWalletDepositBody,
        response: { 201: Type.Ref('Transaction'), ...problems(400, 401, 404, 415, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await sandbox.deposit(request.tenant, request.params.address, request.body)),
  );
};
