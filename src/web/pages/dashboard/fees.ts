/**
 * Fees: the project's own fee per transaction type beside the platform's. Every signed-in user reads
 * them; the project's admins change them (the role is enforced on the server, and every change audited).
 */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../core/errors.ts';
import { formatAmount } from '../../../core/money.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createPartnerFeeService } from '../../../modules/partner-fees/service.ts';
import { platformFeeTerms } from '../../../modules/pricing/quote.ts';
import { webActor } from '../../../modules/web-users/service.ts';
import type { Session } from '../../../modules/web-users/sessions.ts';
import { dateTime, notice } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { table } from '../../kit/table.ts';
import {
  FeeBody,
  feeInput,
  feeTypeLabel,
  partnerFeeForms,
  percent,
  type RefusedFee,
  refusedFee,
} from '../shared/partner-fees.ts';
import { EnvParams, type Render, tenantOf } from './frame.ts';

export const schema = {
  params: EnvParams,
  querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }),
};

type Message = { text: string; tone: 'ok' | 'error' };

export async function load(
  ctx: AppContext,
  fees: ReturnType<typeof createPartnerFeeService>,
  projectId: string,
) {
  const current = await fees.list(projectId);
  return current.data.map((fee) => ({ fee, platform: platformFeeTerms(ctx.config, fee.transactionType) }));
}

export function view(
  session: Session,
  env: string,
  rows: Awaited<ReturnType<typeof load>>,
  message?: Message,
  refused?: RefusedFee,
): Html {
  const isAdmin = session.user.role === 'admin';
  return html`${notice(message?.text, message?.tone)}
<p>Your fee is charged on top of the platform's on every transaction of its type, in sandbox and production alike, and booked to
your project's revenue account. Receipts show both fees apart. A change applies to transactions created after it.</p>
${table(
  ['Transaction type', 'Platform fee', 'Your fee', 'Last changed'],
  rows.map(
    ({ fee, platform }) => html`<tr><td>${feeTypeLabel(fee.transactionType)}</td>
<td>${percent(platform.basisPoints)} + BRL ${formatAmount(platform.flat)}<br><span class="hint">at least BRL ${formatAmount(platform.minimum)}</span></td>
<td><strong>${percent(fee.bps)} + BRL ${fee.flat}</strong></td><td>${dateTime(fee.updatedAt)}</td></tr>`,
  ),
  'No fees.',
)}
${
  isAdmin
    ? html`<section class="panel" aria-labelledby="change-fee"><h2 id="change-fee">Change your fee</h2>${partnerFeeForms(
        `/${env}/fees`,
        session.csrfToken,
        rows.map((row) => row.fee),
        refused,
      )}</section>`
    : html`<p class="hint">Only the project's admins can change the fee.</p>`
}`;
}

export function register(app: WebApp, ctx: AppContext, render: Render) {
  const fees = createPartnerFeeService(ctx);

  app.get('/:env/fees', { schema }, async (request, reply) => {
    const tenant = tenantOf(request);
    const message: Message | undefined =
      request.query.done === 'saved' ? { text: 'The fee was saved.', tone: 'ok' } : undefined;
    const rows = await load(ctx, fees, tenant.projectId);
    return render(request, reply, 'Fees', view(request.session!, tenant.environment, rows, message));
  });

  app.post(
    '/:env/fees',
    { config: { access: 'admin' }, schema: { params: EnvParams, body: FeeBody } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      try {
        await fees.set(webActor(request.session!.user), tenant.projectId, feeInput(request.body));
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 400) throw error;
        const rows = await load(ctx, fees, tenant.projectId);
        const body = view(
          request.session!,
          tenant.environment,
          rows,
          { text: 'The fee was not saved: see the form below.', tone: 'error' },
          refusedFee(request.body, error),
        );
        return render(request, reply, 'Fees', body, 400);
      }
      return reply.redirect(`/${tenant.environment}/fees?done=saved`, 303);
    },
  );
}
