/**
 * A transaction's page body, shared by the dashboard and the console: summary, the PIX QR code of an
 * on-ramp awaiting funds, the market reference it was priced from (its quote's, or its receipt's), the receipt with the platform's and the partner's fees apart, and the timeline.
 */
import QRCode from 'qrcode';
import { type Html, html } from '../../../lib/html.ts';
import type { QuoteReference } from '../../../modules/pricing/service.ts';
import { requestedMoney } from '../../../modules/transactions/presenter.ts';
import type { TransactionService } from '../../../modules/transactions/read-service.ts';
import { badge, dateTime, idCell, when } from '../../kit/parts.ts';

type AnyTransaction = Awaited<ReturnType<TransactionService['get']>>;

export async function transactionDetail(
  tx: AnyTransaction,
  options: { customer: Html; partnerFeeLabel: string; extra?: Html; reference?: QuoteReference | null },
): Promise<Html> {
  const deposit = 'depositInstructions' in tx ? tx.depositInstructions : null;
  const money = requestedMoney(tx);
  const pixDeposit = deposit && 'brCode' in deposit ? deposit : null;
  const brCode = pixDeposit?.brCode;
  // dollars paid into a customer account: the rail they came by and the account they came to
  const bankDeposit = deposit && 'accountId' in deposit ? deposit : null;
  // dollars paid out to a US bank account: the rail they went by, and the bank's return code if it sent them back
  const bankPayout = 'payout' in tx && tx.payout && tx.payout.rail !== 'PIX' ? tx.payout : null;
  const returnCode = 'returnCode' in tx ? tx.returnCode : null;
  const qr =
    tx.status === 'AWAITING_FUNDS' && brCode
      ? await QRCode.toDataURL(brCode, { errorCorrectionLevel: 'M', margin: 2, width: 240 })
      : null;
  const receipt = tx.receipt;
  // a quote's reference shows before the ramp is priced; once priced, the receipt keeps the one it used
  const reference = options.reference ?? (receipt && 'reference' in receipt ? receipt.reference : null);
  return html`<div class="grid">
<section class="panel" aria-labelledby="summary"><h2 id="summary">Summary</h2><dl>
<dt>Status</dt><dd>${badge(tx.status)}</dd><dt>Type</dt><dd>${tx.type}</dd>
<dt>Amount</dt><dd>${money.currency} ${money.amount}${'targetCurrency' in tx.request ? ` → ${tx.request.targetCurrency}` : ''}${'blockchain' in tx.request && tx.request.blockchain ? ` on ${tx.request.blockchain}` : ''}</dd>
${when(reference, () => marketReference(reference!))}
<dt>Customer</dt><dd>${options.customer}</dd>
${when(bankDeposit, () => html`<dt>Rail</dt><dd data-field="rail">${bankDeposit!.rail}</dd><dt>Into account</dt><dd data-field="account">${idCell(bankDeposit!.accountId ?? '')}</dd>`)}
${when(bankPayout, () => html`<dt>Paid over</dt><dd data-field="rail">${bankPayout!.rail}</dd><dt>To account</dt><dd data-field="account">${idCell(bankPayout!.bankAccountId)}</dd>`)}
${options.extra ?? html``}
<dt>Created</dt><dd>${dateTime(tx.createdAt)}</dd>
${when(tx.failureReason, () => html`<dt>Failure</dt><dd>${String(tx.failureReason)}</dd>`)}
${when(tx.failureCode, () => html`<dt>Failure code</dt><dd><code data-field="failure-code">${String(tx.failureCode)}</code></dd>`)}
${when('returnReason' in tx && tx.returnReason, () => html`<dt>Returned</dt><dd data-field="return-reason">${String('returnReason' in tx ? tx.returnReason : '')}</dd>`)}
${when(returnCode, () => html`<dt>Return code</dt><dd><code data-field="return-code">${String(returnCode)}</code></dd>`)}
<dt>Id</dt><dd><code>${tx.id}</code></dd></dl></section>
${when(
  qr,
  () => html`<section class="panel" aria-labelledby="pay"><h2 id="pay">Pay with PIX</h2>
<img class="qr" src="${qr!}" alt="PIX QR code for ${money.currency} ${money.amount}">
<p>Expires ${dateTime(pixDeposit!.expiresAt)}</p>
<p><label for="brcode">PIX copy and paste code</label></p>
<div class="secret"><code id="brcode">${brCode!}</code><button type="button" class="secondary" data-copy="brcode">Copy</button></div></section>`,
)}
${when(
  receipt,
  () => html`<section class="panel" aria-labelledby="receipt"><h2 id="receipt">Receipt</h2><dl>
<dt>Paid</dt><dd>${receipt!.sourceCurrency} ${receipt!.sourceAmount}</dd><dt>Fee</dt><dd>${receipt!.sourceCurrency} ${receipt!.fee}</dd>
<dt>Platform fee</dt><dd>${receipt!.fees.platform.currency} ${receipt!.fees.platform.amount}</dd><dt>${options.partnerFeeLabel}</dt><dd>${receipt!.fees.partner.currency} ${receipt!.fees.partner.amount}</dd>
<dt>Converted</dt><dd>${receipt!.sourceCurrency} ${receipt!.netAmount}</dd><dt>Rate</dt><dd>${receipt!.rate}</dd>
<dt>Received</dt><dd>${receipt!.targetCurrency} ${receipt!.targetAmount}</dd>
${when(receipt!.blockchain?.blockExplorerUrl, () => html`<dt>On chain</dt><dd><a href="${receipt!.blockchain!.blockExplorerUrl!}">${receipt!.blockchain!.transactionHash!}</a></dd>`)}</dl></section>`,
)}
</div>
<h2>Timeline</h2>
<ol class="panel">${tx.timeline.map((step) => html`<li>${badge(step.status)} ${dateTime(step.at)}</li>`)}</ol>`;
}

/** The market reference the transaction's quote was priced from: its source, its rate and when it was read. */
const marketReference = (reference: QuoteReference): Html =>
  html`<dt>Market reference</dt><dd class="reference">${reference.source} <code>${reference.rate}</code>${
    reference.at ? html` at ${dateTime(reference.at)}` : html``
  }</dd>`;
