/** The review queue of third-party bank account holders (UNDER_VERIFICATION by default). */
import type { AppContext } from '../../../context.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createHolderReviewService } from '../../../modules/bank-accounts/holder-review.ts';
import { badge, notice } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { pageOf, pager, table } from '../../kit/table.ts';
import { accountIdentifier, holderTaxId, IDENTIFIER_LABEL } from '../shared/bank-account.ts';
import { sendConsole } from './frame.ts';
import { DONE, QueueQuery } from './reviews.ts';

export const schema = { querystring: QueueQuery };

type Query = { status?: string | undefined; page?: string | undefined; done?: string | undefined };

export async function load(review: ReturnType<typeof createHolderReviewService>, query: Query) {
  const status = query.status || 'UNDER_VERIFICATION';
  return { query, queue: await review.queue({ status, relationship: 'THIRD_PARTY' }, pageOf(query.page)) };
}

export function view({ query, queue }: Awaited<ReturnType<typeof load>>): Html {
  return html`${notice(query.done ? DONE : undefined)}
${table(
  ['Holder', 'Tax id', IDENTIFIER_LABEL, 'Project', 'Status'],
  queue.data.map(
    (
      a,
    ) => html`<tr><td><a href="/console/reviews/holders/${a.id}">${a.holder.legalName}</a></td><td>${holderTaxId(a.holder.taxId)}</td>
<td>${accountIdentifier(a)}</td><td><code>${a.projectId.slice(0, 8)}</code> ${a.environment}</td><td>${badge(a.holder.verification.status)}</td></tr>`,
  ),
  'Nothing waiting for review.',
)}${pager('/console/reviews/holders', { status: query.status }, queue.pagination.page, queue.pagination.hasNextPage)}`;
}

export function register(app: WebApp, ctx: AppContext) {
  const review = createHolderReviewService(ctx);
  app.get('/console/reviews/holders', { schema }, async (request, reply) =>
    sendConsole(request, reply, 'Third-party holders', view(await load(review, request.query))),
  );
}
