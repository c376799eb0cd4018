/** The hosted terms page: the terms, and one button that accepts them (or why the link no longer works). */

import { layout, partnerName } from '../../lib/hosted-page.ts';
import { type Html, html } from '../../lib/html.ts';
import type { TermsLinkState } from './service.ts';

/** The platform's terms as the customer reads them before accepting. */
export const TERMS_SUMMARY: Html = html`<div class="box" id="terms">
<h2>Terms of service</h2>
<ul>
<li>Ponte provides accounts, conversions and PIX transfers on behalf of the service that sent you here.</li>
<li>You confirm that the information and documents you provide are true and your own, and that you will
keep them up to date.</li>
<li>Your identity, and the people who own or control a company, are verified as the law requires
(know-your-customer and anti-money-laundering rules); transactions may be reviewed, held or refused.</li>
<li>Your personal data is processed only to provide the service and meet legal obligations.</li>
</ul>
</div>`;

const WHEN = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

function frame(state: string, body: Html, sandbox: boolean): string {
  return layout(
    'Terms of service',
    html`<main data-status="${state}">
<p class="brand">Ponte · Terms of service</p>
${sandbox ? html`<p class="sandbox">Sandbox: no real account is opened.</p>` : html``}
${body}
</main>`,
  );
}

export function termsPage(input: {
  state: TermsLinkState | 'ACCEPTED';
  customerName: string;
  /** the project's display name, null when unset */
  partner: string | null;
  action: string;
  sandbox: boolean;
  /** when the link was used: the terms were accepted through it then */
  usedAt?: Date | null;
}): string {
  const firstName = input.customerName.trim().split(/\s+/)[0] ?? '';
  const partner = partnerName(input.partner);
  switch (input.state) {
    case 'OPEN':
      return frame(
        'OPEN',
        html`<h1>Accept the terms of service</h1>
<p>Hello, ${firstName}. ${partnerName(input.partner, true)} works with Ponte; please read and accept the terms.</p>
${TERMS_SUMMARY}
<form method="post" action="${input.action}">
  <button type="submit">I accept the terms of service</button>
</form>`,
        input.sandbox,
      );
    case 'ACCEPTED':
      return frame(
        'ACCEPTED',
        html`<h1>Thank you, the terms are accepted</h1>
<p>You can close this page and return to ${partner}.</p>`,
        input.sandbox,
      );
    case 'USED':
      return frame(
        'USED',
        html`<h1>The terms are already accepted</h1>
<p>${input.usedAt ? `They were accepted with this link on ${WHEN.format(input.usedAt)} (UTC). ` : ''}There is
nothing more to do: you can close this page and return to ${partner}.</p>
<p>Each link works once; a second click or a reload changes nothing.</p>`,
        input.sandbox,
      );
    case 'EXPIRED':
      return frame(
        'EXPIRED',
        html`<h1>This link has expired</h1>
<p>Links are valid for 24 hours. Ask ${partner} for a new one.</p>`,
        input.sandbox,
      );
  }
}

export function invalidTermsLinkPage(): string {
  return frame(
    'INVALID_LINK',
    html`<h1>This link is not valid</h1>
<p>The link is incorrect. Please ask for a new one from the service that sent it to you.</p>`,
    false,
  );
}

/** A failure that is not about the link: a request the page never sends, or one of ours. */
export function termsErrorPage(title: string, message: string): string {
  return frame(
    'ERROR',
    html`<h1>${title}</h1>
<p>${message}</p>`,
    false,
  );
}
