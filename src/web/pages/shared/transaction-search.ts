/**
 * The transaction filters of the web pages (the dashboard's list, the console's search): read from a
 * query string, checked, turned into the transaction service's filter, and drawn as a search form.
 */
import { Type } from 'typebox';
import { CURRENCIES } from '../../../core/currencies.ts';
import { AppError } from '../../../core/errors.ts';
import { type Html, html } from '../../../lib/html.ts';
import {
  TRANSACTION_STATUSES as RAMP_STATUSES,
  TRANSACTION_TYPES as RAMP_TYPES,
} from '../../../modules/transactions/state.ts';

/** Ramps (on and off) and on-chain moves (transfers, deposits), with their statuses together. */
export const TRANSACTION_TYPES = [...RAMP_TYPES, 'TRANSFER', 'DEPOSIT'] as const;
export const TRANSACTION_STATUSES = [...RAMP_STATUSES, 'PROCESSING'] as const;
export const TRANSACTION_CURRENCIES = CURRENCIES;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const field = (maxLength: number) => Type.Optional(Type.String({ maxLength }));

/** The query string of a filtered list (every field optional; checked by `readTransactionFilter`). */
export const TransactionFilterQuery = {
  customerId: field(64),
  status: field(40),
  type: field(20),
  currency: field(10),
  from: field(10),
  to: field(10),
  page: field(7),
};

export type TransactionFilterInput = {
  customerId?: string | undefined;
  status?: string | undefined;
  type?: string | undefined;
  currency?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
};

/** A UTC calendar day as its first instant, or undefined when it is not a real date. */
function dayStart(value: string): Date | undefined {
  const match = DAY.exec(value);
  if (!match) return undefined;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value ? date : undefined;
}

/**
 * The filter a query asks for, with the values to show back in the form. Unknown values are refused
 * (400 naming each field), never ignored: a list that silently drops a filter misleads.
 */
export function readTransactionFilter(query: TransactionFilterInput) {
  const errors: { pointer: string; message: string }[] = [];
  const text = (name: keyof TransactionFilterInput) => query[name]?.trim() || undefined;
  const oneOf = (name: keyof TransactionFilterInput, allowed: readonly string[]) => {
    const value = text(name);
    if (value !== undefined && !allowed.includes(value))
      errors.push({ pointer: `/query/${name}`, message: `must be one of ${allowed.join(', ')}` });
    return value;
  };
  const customerId = text('customerId');
  if (customerId && !UUID.test(customerId))
    errors.push({ pointer: '/query/customerId', message: 'is not a customer id' });
  const status = oneOf('status', TRANSACTION_STATUSES);
  const type = oneOf('type', TRANSACTION_TYPES);
  const currency = oneOf('currency', TRANSACTION_CURRENCIES);
  const day = (name: 'from' | 'to') => {
    const value = text(name);
    const start = value === undefined ? undefined : dayStart(value);
    if (value !== undefined && !start)
      errors.push({ pointer: `/query/${name}`, message: 'must be a date (YYYY-MM-DD)' });
    return { value, start };
  };
  const from = day('from');
  const to = day('to');
  if (from.start && to.start && from.start > to.start)
    errors.push({ pointer: '/query/to', message: 'must not be before the start date' });
  if (errors.length > 0) throw new AppError('invalid_request', 'Some filters are invalid', { errors });
  return {
    filter: {
      customerId,
      status,
      type,
      currency,
      createdFrom: from.start,
      // the end date is inclusive: everything before the next day
      createdBefore: to.start ? new Date(to.start.getTime() + 86_400_000) : undefined,
    },
    shown: { customerId, status, type, currency, from: from.value, to: to.value },
  };
}

export type ShownFilter = ReturnType<typeof readTransactionFilter>['shown'];

/** A choice of values; one typed into the address that is not among them is kept, selected, to be corrected. */
const select = (id: string, label: string, values: readonly string[], chosen: string | undefined) => {
  const typed = chosen !== undefined && !values.includes(chosen) ? [chosen.slice(0, 40)] : [];
  return html`<div class="field"><label for="${id}">${label}</label><select id="${id}" name="${id}"${typed.length > 0 ? html` aria-invalid="true"` : html``}><option value="">Any</option>${[
    ...values,
    ...typed,
  ].map(
    (value) =>
      html`<option value="${value}"${value === chosen || typed.includes(value) ? html` selected` : html``}>${value.replaceAll('_', ' ')}</option>`,
  )}</select></div>`;
};

/** The filter fields of a search form (the caller adds its own fields and the button). */
export function transactionFilterFields(shown: ShownFilter, customerField?: Html): Html {
  return html`${customerField ?? html`<div class="field"><label for="customerId">Customer id</label><input id="customerId" name="customerId" value="${shown.customerId ?? ''}" placeholder="customer UUID"></div>`}
${select('status', 'Status', TRANSACTION_STATUSES, shown.status)}
${select('type', 'Type', TRANSACTION_TYPES, shown.type)}
${select('currency', 'Currency', TRANSACTION_CURRENCIES, shown.currency)}
<div class="field"><label for="from">Created from</label><input id="from" name="from" type="date" value="${shown.from ?? ''}"></div>
<div class="field"><label for="to">Created to</label><input id="to" name="to" type="date" value="${shown.to ?? ''}"></div>`;
}
