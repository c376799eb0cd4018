/** The operator console's frame: navigation and who is signed in. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Html, html } from '../../../lib/html.ts';
import { csrfField } from '../../kit/csrf.ts';
import { sendHtml, shell } from '../../kit/layout.ts';

export const CONSOLE_ASSETS = '/console/assets';
export const CONSOLE_BRAND = 'Ponte Operator Console';

const NAV = [
  { href: '/console/reviews/limit-requests', label: 'Limit requests', section: 'Review queues' },
  { href: '/console/reviews/verifications', label: 'Verifications', section: 'Review queues' },
  { href: '/console/reviews/holders', label: 'Third-party holders', section: 'Review queues' },
  { href: '/console/screening/cases', label: 'Screening matches', section: 'Review queues' },
  { href: '/console/screening/lists', label: 'Sanctions lists', section: 'Platform' },
  { href: '/console/projects', label: 'Projects', section: 'Platform' },
  { href: '/console/rates', label: 'Rates', section: 'Platform' },
  { href: '/console/transactions', label: 'Transactions', section: 'Platform' },
  { href: '/console/chain-balances', label: 'Chain balances', section: 'Platform' },
  { href: '/console/pix', label: 'PIX rail', section: 'Platform' },
  { href: '/console/usd', label: 'USD rail', section: 'Platform' },
  { href: '/console/audit', label: 'Audit log', section: 'Platform' },
  { href: '/console/account', label: 'Your account', section: 'Platform' },
];

/** Open chain balance differences, counted for each console request (an alert on every page). */
const chainAlerts = new WeakMap<FastifyRequest, number>();
export const setChainAlert = (request: FastifyRequest, open: number) => chainAlerts.set(request, open);

function chainAlert(request: FastifyRequest): Html {
  const open = chainAlerts.get(request) ?? 0;
  if (open === 0) return html``;
  return html`<div class="notice error" role="alert"><strong>Chain balances differ from the ledger</strong>: ${String(open)} open ${open === 1 ? 'difference' : 'differences'}. <a href="/console/chain-balances">Review and resolve</a></div>`;
}

export function consolePage(request: FastifyRequest, title: string, body: Html): Html {
  const session = request.session!;
  const path = request.url.split('?')[0]!;
  const current =
    NAV.map((item) => item.href)
      .filter((href) => path === href || path.startsWith(`${href}/`))
      .sort((a, b) => b.length - a.length)[0] ?? '';
  const top = html`<div class="topbar"><span></span><div class="user"><span>${session.user.email}</span>
<form class="inline" method="post" action="/console/sign-out">${csrfField(session.csrfToken)}<button type="submit" class="secondary">Sign out</button></form></div></div>`;
  return shell({
    title,
    assets: CONSOLE_ASSETS,
    brand: CONSOLE_BRAND,
    subtitle: 'Platform staff',
    nav: NAV,
    current,
    top,
    body: html`${chainAlert(request)}${body}`,
  });
}

export const sendConsole = (
  request: FastifyRequest,
  reply: FastifyReply,
  title: string,
  body: Html,
  status = 200,
) => sendHtml(reply, status, consolePage(request, title, body));
