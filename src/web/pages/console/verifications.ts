/** The review queue of verifications (UNDER_VERIFICATION by default). */
import type { AppContext } from '../../../context.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createVerificationReviewService } from '../../../modules/verification-review/review.ts';
import { badge, dateTime, notice } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { pageOf, pager, table } from '../../kit/table.ts';
import { sendConsole } from './frame.ts';
import { DONE, QueueQuery } from './reviews.ts';

export const schema = { querystring: QueueQuery };

type Query = { status?: string | undefined; page?: string | undefined; done?: string | undefined };

export async function load(review: ReturnType<typeof createVerificationReviewService>, query: Query) {
  const status = query.status || 'UNDER_VERIFICATION';
  return { query, status, queue: await review.queue({ status }, pageOf(query.page)) };
}

export function view({ query, status, queue }: Awaited<ReturnType<typeof load>>): Html {
  return html`${notice(query.done ? DONE : undefined)}<p class="hint">Showing ${status.replaceAll('_', ' ')}.</p>
${table(
  ['Customer', 'Tax id', 'Project', 'Status', 'Updated'],
  queue.data.map(
    (
      v,
    ) => html`<tr><td><a href="/console/reviews/verifications/${v.id}">${v.associatedParty ? `${v.associatedParty.name} (${v.associatedParty.role} of ${v.customer.name})` : v.customer.name}</a>${v.missing && v.missing.length > 0 ? html`<br><span class="hint">waiting for ${v.missing.length} item${v.missing.length === 1 ? '' : 's'}</span>` : html``}</td><td><code>${v.customer.taxId}</code></td>
<td><code>${v.projectId.slice(0, 8)}</code> ${v.environment}</td><td>${badge(v.status)}</td><td>${dateTime(v.updatedAt)}</td></tr>`,
  ),
  'Nothing waiting for review.',
)}${pager('/console/reviews/verifications', { status: query.status }, queue.pagination.page, queue.pagination.hasNextPage)}`;
}

export function register(app: WebApp, ctx: AppContext) {
  const review = createVerificationReviewService(ctx);
  app.get('/console/reviews/verifications', { schema }, async (request, reply) =>
    sendConsole(request, reply, 'Verifications', view(await load(review, request.query))),
  );
}
