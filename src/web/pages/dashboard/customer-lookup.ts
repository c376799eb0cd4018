/**
 * Every "customer" field of the dashboard takes what staff know of a customer: its id, or a name, tax id
 * or e-mail that finds exactly one. Several or no matches answer a 400 that says which, so the form can
 * show it beside the text typed.
 */

import { AppError } from '../../../core/errors.ts';
import { CANONICAL_UUID } from '../../../core/storable.ts';
import type { Tenant } from '../../../lib/environment.ts';
import { type Html, html } from '../../../lib/html.ts';

type Search<Scope> = (
  scope: Scope,
  text: string,
  page: { page: number; limit: number; offset: number },
) => Promise<{ data: { id: string; name: string; email: string }[]; pagination: { total: number } }>;

/**
 * The id of the one customer `text` names; undefined for empty text. `scope` is where `search` looks: a
 * tenant on the dashboard, a project or environment (or everything) in the console.
 */
export async function resolveCustomer<Scope = Tenant>(
  search: Search<Scope>,
  scope: Scope,
  text: string,
): Promise<string | undefined> {
  const wanted = text.trim();
  if (!wanted) return undefined;
  if (CANONICAL_UUID.test(wanted)) return wanted.toLowerCase();
  const found = await search(scope, wanted, { page: 1, limit: 5, offset: 0 });
  if (found.data.length === 1) return found.data[0]!.id;
  if (found.data.length === 0) {
    throw new AppError('invalid_request', `No customer has "${wanted}" in its name, tax id or e-mail.`);
  }
  const shown = found.data
    .map((customer) => `${customer.name} <${customer.email}> ${customer.id}`)
    .join('; ');
  throw new AppError(
    'invalid_request',
    `${found.pagination.total} customers match "${wanted}" (${shown}${found.pagination.total > 5 ? '; …' : ''}): type more of it, or an id.`,
  );
}

/** The text input of a customer field. */
export function customerInput(id: string, value: string, options: { required?: boolean } = {}): Html {
  return html`<input id="${id}" name="${id}" value="${value}"${options.required ? html` required` : html``} placeholder="name, tax id, e-mail or id" autocomplete="off">`;
}
