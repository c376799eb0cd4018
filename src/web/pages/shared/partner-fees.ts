/** The partner fee's parts both surfaces show: percentages, labels, the forms that set it, and their input. */
import { Type } from 'typebox';
import type { AppError } from '../../../core/errors.ts';
import { StringEnum } from '../../../http/schemas.ts';
import { type Html, html } from '../../../lib/html.ts';
import {
  FEE_TRANSACTION_TYPES,
  type FeeTransactionType,
  MAX_PARTNER_FEE_BPS,
  type PartnerFeeView,
} from '../../../modules/partner-fees/service.ts';
import { csrfField } from '../../kit/csrf.ts';
import { fieldError, invalidAttrs } from '../../kit/parts.ts';

/** Basis points as a percentage, exactly: 125 → "1.25%". */
export const percent = (bps: number) => `${Math.floor(bps / 100)}.${String(bps % 100).padStart(2, '0')}%`;

export const feeTypeLabel = (type: FeeTransactionType) => (type === 'ON_RAMP' ? 'On-ramp' : 'Off-ramp');

/** A fee form refused: its values as typed and, per field, what is wrong in a person's words. */
export type RefusedFee = {
  transactionType: FeeTransactionType;
  bps: string;
  flat: string;
  messages: { bps?: string; flat?: string };
};

/** The forms that set each transaction type's partner fee (shared with the operator console). */
export function partnerFeeForms(
  action: string,
  csrf: string,
  fees: PartnerFeeView[],
  refused?: RefusedFee,
): Html {
  const form = (fee: PartnerFeeView) => {
    const id = fee.transactionType.toLowerCase();
    const label = feeTypeLabel(fee.transactionType);
    const own = refused?.transactionType === fee.transactionType ? refused : undefined;
    const bps = own?.bps ?? String(fee.bps);
    const flat = own?.flat ?? fee.flat;
    return html`<form method="post" action="${action}">${csrfField(csrf)}
<input type="hidden" name="transactionType" value="${fee.transactionType}">
<fieldset class="bare"><legend>${label}</legend>
<div class="field"><label for="${id}-bps">Basis points <span class="hint">(100 = 1%, at most ${String(MAX_PARTNER_FEE_BPS)})</span></label>
<input id="${id}-bps" name="bps" inputmode="numeric" pattern="[0-9]{1,4}" required value="${bps}"${invalidAttrs(`${id}-bps`, own?.messages.bps)}>
${fieldError(`${id}-bps`, own?.messages.bps)}</div>
<div class="field"><label for="${id}-flat">Flat amount in BRL</label>
<input id="${id}-flat" name="flat" inputmode="decimal" required value="${flat}"${invalidAttrs(`${id}-flat`, own?.messages.flat)}>
${fieldError(`${id}-flat`, own?.messages.flat)}</div>
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

/**
 * A refused fee as the form shows it again: what was typed, and each bad field's message in a person's
 * words (the service's rules: a whole number of basis points up to the maximum, an amount in BRL).
 */
export function refusedFee(
  body: { transactionType: FeeTransactionType; bps: string; flat: string },
  error: AppError,
): RefusedFee {
  const bad = new Set((error.errors ?? []).map((e) => e.pointer));
  return {
    transactionType: body.transactionType,
    bps: body.bps,
    flat: body.flat,
    messages: {
      ...(bad.has('/body/bps')
        ? { bps: `Enter a whole number of basis points from 0 to ${MAX_PARTNER_FEE_BPS} (100 = 1%).` }
        : {}),
      ...(bad.has('/body/flat')
        ? { flat: 'Enter an amount in BRL with up to two decimals, such as 0.50.' }
        : {}),
    },
  };
}
