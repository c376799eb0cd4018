import { type Html, html } from '../../../lib/html.ts';

/** What pages show of a bank account: its rail and where it pays, and the holder's tax id when given. */

type Identifier =
  | { keyType: string; keyValue: string }
  | { routingNumber: string; accountNumber: string; accountType: string };

/** The column or field label for an account's identifier. */
export const IDENTIFIER_LABEL = 'Pays to';

/**
 * A PIX account's key (`PIX CPF 123.456.789-09`), or a US account's rail, routing and account number
 * (`ACH routing 021000021 · account 000123456789 (CHECKING)`).
 */
export function accountIdentifier(account: { rail: string; identifier: Identifier }): Html {
  const id = account.identifier;
  if ('routingNumber' in id) {
    return html`<code>${account.rail} routing ${id.routingNumber} · account ${id.accountNumber}</code> (${id.accountType})`;
  }
  return html`<code>${account.rail} ${id.keyType} ${id.keyValue}</code>`;
}

/** The holder's tax id, or a dash when the holder of a USD account was given without one. */
export const holderTaxId = (taxId: string | null | undefined): Html =>
  taxId ? html`<code>${taxId}</code>` : html`<span class="hint">none given</span>`;
