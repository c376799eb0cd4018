/** The operator console's frame: navigation and who is signed in. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfField, type Html, html, sendHtml, shell } from '../html.ts';

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
  { href: '/console/audit', label: 'Audit log', section: 'Platform' },
  { href: '/console/account', label: 'Your account', section: 'Platform' },
];

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
    body,
  });
}

export const sendConsole = (
  request: FastifyRequest,
  reply: FastifyReply,
  title: string,
  body: Html,
  status = 200,
) => sendHtml(reply, status, consolePage(request, title, body));
