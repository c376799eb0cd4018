/** The review queue of possible sanctions matches (OPEN by default), oldest first. */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { StringEnum } from '../../../http/schemas.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createScreeningReviewService } from '../../../modules/screening/review.ts';
import { badge, dateTime, notice } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { pageOf, pager, table } from '../../kit/table.ts';
import { sendConsole } from './frame.ts';

const STATUSES = ['OPEN', 'CLEARED', 'CONFIRMED'] as const;

export const schema = {
  querystring: Type.Object({
    status: Type.Optional(StringEnum(STATUSES)),
    page: Type.Optional(Type.String({ maxLength: 7 })),
    done: Type.Optional(Type.String({ maxLength: 20 })),
  }),
};

type Query = {
  status?: (typeof STATUSES)[number] | undefined;
  page?: string | undefined;
  done?: string | undefined;
};

export async function load(review: ReturnType<typeof createScreeningReviewService>, query: Query) {
  const status = query.status ?? 'OPEN';
  return { query, status, queue: await review.queue({ status }, pageOf(query.page)) };
}

export function view({ query, status, queue }: Awaited<ReturnType<typeof load>>): Html {
  return html`${notice(query.done ? 'Decision recorded.' : undefined)}<p class="hint">Showing ${status}, oldest first.</p>
${table(
  ['Screened', 'Subject', 'Best match', 'Score', 'Project', 'Status', 'Opened'],
  queue.data.map(
    (
      c,
    ) => html`<tr><td><a href="/console/screening/cases/${c.id}">${String(c.screened.name ?? c.screened.address ?? '—')}</a></td>
<td>${c.subjectType.replaceAll('_', ' ')} <code>${c.subjectId.slice(0, 8)}</code></td><td>${c.reason === 'STRUCTURING' ? 'Structuring: a sum split under the Travel Rule threshold' : html`${c.matches[0]?.primaryName ?? '—'} (${c.matches[0]?.source ?? ''})`}</td>
<td>${c.score}</td><td><code>${c.projectId.slice(0, 8)}</code> ${c.environment}</td><td>${badge(c.status)}</td><td>${dateTime(c.createdAt)}</td></tr>`,
  ),
  'No possible match waiting for review.',
)}${pager('/console/screening/cases', { status: query.status }, queue.pagination.page, queue.pagination.hasNextPage)}`;
}

export function register(app: WebApp, ctx: AppContext) {
  const review = createScreeningReviewService(ctx);
  app.get('/console/screening/cases', { schema }, async (request, reply) =>
    sendConsole(request, reply, 'Screening matches', view(await load(review, request.query))),
  );
}
