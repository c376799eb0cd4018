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
