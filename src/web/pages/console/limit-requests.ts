/** The review queue of limit requests (IN_REVIEW by default), oldest first. */
import type { AppContext } from '../../../context.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createLimitReviewService } from '../../../modules/limit-requests/review-service.ts';
import { badge, dateTime, notice } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { pageOf, pager, table } from '../../kit/table.ts';
import { sendConsole } from './frame.ts';
import { DONE, dash, QueueQuery } from './reviews.ts';

export const schema = { querystring: QueueQuery };

type Query = { status?: string | undefined; page?: string | undefined; done?: string | undefined };

export async function load(limitReview: ReturnType<typeof createLimitReviewService>, query: Query) {
  const status = query.status || 'IN_REVIEW';
  return { query, status, queue: await limitReview.queue({ status }, pageOf(query.page)) };
}

export function view({ query, status, queue }: Awaited<ReturnType<typeof load>>): Html {
  return html`${notice(query.done ? DONE : undefined)}<p class="hint">Showing ${status.replaceAll('_', ' ')}, oldest first.</p>
${table(
  ['Customer', 'Requested (single / daily / monthly)', 'Project', 'Status', 'Created'],
  queue.data.map(
    (r) => html`<tr><td><a href="/console/reviews/limit-requests/${r.id}">${r.customer.name}</a></td>
<td>${dash(r.requested.single)} / ${dash(r.requested.daily)} / ${dash(r.requested.monthly)}</td>
<td><code>${r.projectId.slice(0, 8)}</code> ${r.environment}</td><td>${badge(r.status)}</td><td>${dateTime(r.createdAt)}</td></tr>`,
  ),
  'Nothing waiting for review.',
)}${pager('/console/reviews/limit-requests', { status: query.status }, queue.pagination.page, queue.pagination.hasNextPage)}`;
}

export function register(app: WebApp, ctx: AppContext) {
  const limitReview = createLimitReviewService(ctx);
  app.get('/console/reviews/limit-requests', { schema }, async (request, reply) =>
    sendConsole(request, reply, 'Limit requests', view(await load(limitReview, request.query))),
  );
}
