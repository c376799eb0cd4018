/**
 * Fees: the project's own fee per transaction type beside the platform's. Every signed-in user reads
 * them; the project's admins change them (the role is enforced on the server, and every change audited).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { formatAmount } from '../../core/money.ts';
import { StringEnum } from '../../http/schemas.ts';
import { FEE_TRANSACTION_TYPES, type FeeTransactionType } from '../../modules/partner-fees/repo.ts';
import {
  createPartnerFeeService,
  MAX_PARTNER_FEE_BPS,
  type PartnerFeeView,
} from '../../modules/partner-fees/service.ts';
import { platformFeeTerms } from '../../modules/pricing/quote.ts';
import { webActor } from '../../modules/web-users/service.ts';
import { csrfField, dateTime, type Html, html, notice, table } from '../html.ts';
import { EnvParams, tenantOf } from './frame.ts';
import type { Render } from './render.ts';

/** Basis points as a percentage, exactly: 125 → "1.25%". */
export const percent = (bps: number) => `${Math.floor(bps / 100)}.${String(bps % 100).padStart(2, '0')}%`;

export const feeTypeLabel = (type: FeeTransactionType) => (type === 'ON_RAMP' ? 'On-ramp' : 'Off-ramp');

/** The forms that set each transaction type's partner fee (shared with the operator console). */
export function partnerFeeForms(action: string, csrf: string, fees: PartnerFeeView[]): Html {
  const form = (fee: PartnerFeeView) => {
    const id = fee.transactionType.toLowerCase();
    const label = feeTypeLabel(fee.transactionType);
    return html`<form method="post" action="${action}">${csrfField(csrf)}
<input type="hidden" name="transactionType" value="${fee.transactionType}">
<fieldset class="bare"><legend>${label}</legend>
<div class="field"><label for="${id}-bps">Basis points <span class="hint">(100 = 1%, at most ${String(MAX_PARTNER_FEE_BPS)})</span></label>
<input id="${id}-bps" name="bps" inputmode="numeric" pattern="[0-9]{1,4}" required value="${String(fee.bps)}"></div>
<div class="field"><label for="${id}-flat">Flat amount in BRL</label>
<input id="${id}-flat" name="flat" inputmode="decimal" required value="${fee.flat}"></div>
<button type="submit">Save ${label.toLowerCase()} fee</button></fieldset></form>`;
  };
  return html`<div class="grid">${fees.map(form)}</div>`;
}

export const FeeBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 64 })),
  transactionType: StringEnum(FEE_TRANSACTION_TYPES),
  bps: Type.String({ maxLength: 12 }),
  flat: Type.String({ maxLength: 20 }),
});

/** The form's fields as the service takes them; a non-number `bps` reaches the service as NaN (refused). */
export const feeInput = (body: { transactionType: FeeTransactionType; bps: string; flat: string }) => ({
  transactionType: body.transactionType,
  bps: /^\d{1,6}$/.test(body.bps.trim()) ? Number(body.bps.trim()) : Number.NaN,
  flat: body.flat.trim(),
});

/** An AppError of bad input as one line for a notice. */
export const problemLine = (error: AppError) =>
  `${error.message}: ${(error.errors ?? []).map((e) => `${e.pointer.split('/').pop()} ${e.message}`).join('; ')}`;

export function registerFeePages(app: FastifyInstance, ctx: AppContext, render: Render) {
  const fees = createPartnerFeeService(ctx);

  async function page(request: FastifyRequest, message?: { text: string; tone: 'ok' | 'error' }) {
    const tenant = tenantOf(request);
    const session = request.session!;
    const current = await fees.list(tenant.projectId);
    const isAdmin = session.user.role === 'admin';
    const rows = current.data.map((fee) => {
      const platform = platformFeeTerms(ctx.config, fee.transactionType);
      return html`<tr><td>${feeTypeLabel(fee.transactionType)}</td>
<td>${percent(platform.basisPoints)} + BRL ${formatAmount(platform.flat)}<br><span class="hint">at least BRL ${formatAmount(platform.minimum)}</span></td>
<td><strong>${percent(fee.bps)} + BRL ${fee.flat}</strong></td><td>${dateTime(fee.updatedAt)}</td></tr>`;
    });
    return html`${notice(message?.text, message?.tone)}
<p>Your fee is charged on top of the platform's on every transaction of its type, in sandbox and production alike, and booked to
your project's revenue account. Receipts show both fees apart. A change applies to transactions created after it.</p>
${table(['Transaction type', 'Platform fee', 'Your fee', 'Last changed'], rows, 'No fees.')}
${
  isAdmin
    ? html`<section class="panel" aria-labelledby="change-fee"><h2 id="change-fee">Change your fee</h2>${partnerFeeForms(`/${tenant.environment}/fees`, session.csrfToken, current.data)}</section>`
    : html`<p class="hint">Only the project's admins can change the fee.</p>`
}`;
  }

  app.get(
    '/:env/fees',
    {
      schema: {
        params: EnvParams,
        querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }),
      },
    },
    async (request, reply) => {
      const done = (request.query as { done?: string }).done === 'saved';
      return render(
        request,
        reply,
        'Fees',
        await page(request, done ? { text: 'The fee was saved.', tone: 'ok' } : undefined),
      );
    },
  );

  app.post(
    '/:env/fees',
    { config: { access: 'admin' }, schema: { params: EnvParams, body: FeeBody } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      try {
        await fees.set(
          webActor(request.session!.user),
          tenant.projectId,
          feeInput(request.body as Static<typeof FeeBody>),
        );
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 400) throw error;
        const body = await page(request, { text: problemLine(error), tone: 'error' });
        return render(request, reply, 'Fees', body, 400);
      }
      return reply.redirect(`/${tenant.environment}/fees?done=saved`, 303);
    },
  );
}
