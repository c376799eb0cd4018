/** `POST /transactions/{id}/travel-rule`: the originator's data of a deposit waiting for it. */
import { Type } from 'typebox';
import { bearerSecurity, IdParams, problems } from '../../http/schemas.ts';
import type { PublicPlugin } from '../plugins.ts';
import { supplyDepositTravelRule } from '../wallets/held.ts';
import { DepositTravelRuleBody } from './travel-rule-schema.ts';

export const travelRuleRoutes: PublicPlugin = async (app, { ctx }) => {
  app.post(
    '/transactions/:id/travel-rule',
    {
      schema: {
        operationId: 'supplyTravelRule',
        tags: ['transactions'],
        summary: "Supply the originator's Travel Rule data of a deposit AWAITING_TRAVEL_RULE",
        description:
          'A deposit worth PONTE_TRAVEL_RULE_THRESHOLD USD or more waits, uncredited, in AWAITING_TRAVEL_RULE ' +
          'until its originator is named here (and `vasp` when walletType is HOSTED). The data is stored as ' +
          'IVMS101 and the deposit moves to PROCESSING (credited at its confirmations, at once when they are ' +
          'already met). An originator whose name may be on a sanctions list holds the deposit for compliance ' +
          'review. Any other transaction or status: 409 invalid_state_transition.',
        security: bearerSecurity,
        params: IdParams,
        body: DepositTravelRuleBody,
        response: { 200: Type.Ref('Transaction'), ...problems(400, 401, 404, 409, 415, 429) },
      },
    },
    async (request) =>
      ctx.db.transaction((tx) =>
        supplyDepositTravelRule(tx, ctx, request.tenant, request.params.id, request.body, ctx.clock()),
      ),
  );
};
