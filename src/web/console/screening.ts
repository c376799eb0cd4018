/**
 * Console pages of sanctions screening: the list versions in force (imported with `npm run
 * screening:import`), and the review queue of possible matches, each beside the list entries it matched,
 * with the clear or confirm decision the operator API takes (through the same service, which audits it).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { StringEnum } from '../../http/schemas.ts';
import { html } from '../../lib/html.ts';
import { listVersions } from '../../modules/screening/lists.ts';
import { createScreeningReviewService } from '../../modules/screening/review.ts';
import { webActor } from '../../modules/web-users/service.ts';
import { csrfField } from '../kit/csrf.ts';
import { badge, dateTime, notice } from '../kit/parts.ts';
import { pageOf, pager, table } from '../kit/table.ts';
import { sendConsole } from './frame.ts';

const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
const QueueQuery = Type.Object({
  status: Type.Optional(StringEnum(['OPEN', 'CLEARED', 'CONFIRMED'])),
  page: Type.Optional(Type.String({ maxLength: 7 })),
  done: Type.Optional(Type.String({ maxLength: 20 })),
});
const list = (values: readonly string[]) => (values.length > 0 ? values.join(', ') : '—');

export function registerScreeningPages(app: FastifyInstance, ctx: AppContext) {
  const review = createScreeningReviewService(ctx);

  app.get('/console/screening/lists', async (request, reply) => {
    const { inForce, recent } = await listVersions(ctx.db);
    const row = (v: (typeof recent)[number]) =>
      html`<tr><td>${v.source}</td><td>${v.in_force ? badge('IN_FORCE') : badge('RETIRED')}</td><td>${v.entries}</td><td>${v.names}</td>
<td>${v.addresses}</td><td>${v.published_at ? dateTime(v.published_at.toISOString()) : '—'}</td><td>${dateTime(v.imported_at.toISOString())}</td><td><code>${v.digest.slice(0, 12)}</code></td></tr>`;
    const headers = [
      'Source',
      'State',
      'Entries',
      'Names',
      'Chain addresses',
      'Published',
      'Imported',
      'Digest',
    ];
    const body = html`<p class="hint">Lists are imported on the deployment's own schedule with
<code>npm run screening:import -- --source ofac-sdn DIR</code> or <code>--source un FILE</code>; nothing is fetched at run time.</p>
<h2>In force</h2>${table(headers, inForce.map(row), 'No list imported: nobody is screened.')}
<h2>Latest imports</h2>${table(headers, recent.map(row), 'No imports yet.')}`;
    return sendConsole(request, reply, 'Sanctions lists', body);
  });

  app.get('/console/screening/cases', { schema: { querystring: QueueQuery } }, async (request, reply) => {
    const query = request.query as {
      status?: 'OPEN' | 'CLEARED' | 'CONFIRMED';
      page?: string;
      done?: string;
    };
    const status = query.status ?? 'OPEN';
    const queue = await review.queue({ status }, pageOf(query.page));
    const body = html`${notice(query.done ? 'Decision recorded.' : undefined)}<p class="hint">Showing ${status}, oldest first.</p>
${table(
  ['Screened', 'Subject', 'Best match', 'Score', 'Project', 'Status', 'Opened'],
  queue.data.map(
    (
      c,
    ) => html`<tr><td><a href="/console/screening/cases/${c.id}">${String(c.screened.name ?? c.screened.address ?? '—')}</a></td>
<td>${c.subjectType.replaceAll('_', ' ')} <code>${c.subjectId.slice(0, 8)}</code></td><td>${c.matches[0]?.primaryName ?? '—'} (${c.matches[0]?.source ?? ''})</td>
<td>${c.score}</td><td><code>${c.projectId.slice(0, 8)}</code> ${c.environment}</td><td>${badge(c.status)}</td><td>${dateTime(c.createdAt)}</td></tr>`,
  ),
  'No possible match waiting for review.',
)}${pager('/console/screening/cases', { status: query.status }, queue.pagination.page, queue.pagination.hasNextPage)}`;
    return sendConsole(request, reply, 'Screening matches', body);
  });

  app.get('/console/screening/cases/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const c = await review.get((request.params as { id: string }).id);
    const csrf = request.session!.csrfToken;
    const screened = c.screened as Record<string, string | null | undefined>;
    const subject = html`<section class="panel"><h2>Screened ${c.subjectType.replaceAll('_', ' ').toLowerCase()}</h2><dl>
${screened.name ? html`<dt>Name</dt><dd>${screened.name}</dd>` : html``}
${screened.address ? html`<dt>Address</dt><dd><code>${screened.address}</code></dd>` : html``}
<dt>Date of birth</dt><dd>${screened.birthDate ?? '—'}</dd><dt>Country</dt><dd>${screened.country ?? '—'}</dd>
<dt>Customer</dt><dd><code>${c.customerId}</code></dd><dt>Reason</dt><dd>${c.reason.replaceAll('_', ' ')}</dd><dt>Status</dt><dd>${badge(c.status)}</dd></dl></section>`;
    const entries = c.entries.map((entry) => {
      const match = c.matches.find((m) => m.entryId === entry.id);
      return html`<section class="panel"><h2>${entry.primaryName}</h2><dl>
<dt>List</dt><dd>${entry.source} ${entry.sourceUid} · ${list(entry.programs)}</dd><dt>Kind</dt><dd>${entry.kind}</dd>
<dt>Matched name</dt><dd>${match?.matchedName ?? '—'} (score ${String(match?.score ?? '—')}; name ${String(match?.nameScore ?? '—')})</dd>
<dt>What moved the score</dt><dd>${list(match?.factors ?? [])}</dd>
<dt>Names</dt><dd>${list(entry.names.map((n) => n.name))}</dd><dt>Dates of birth</dt><dd>${list(entry.birthDates)}</dd>
<dt>Countries</dt><dd>${list(entry.countries)}</dd><dt>Chain addresses</dt><dd>${list(entry.addresses.map((a) => `${a.currency} ${a.address}`))}</dd>
<dt>Remarks</dt><dd>${entry.remarks ?? '—'}</dd></dl></section>`;
    });
    const decision =
      c.status === 'OPEN'
        ? html`<section class="panel"><h2>Decision</h2><form method="post" action="/console/screening/cases/${c.id}">${csrfField(csrf)}
<div class="field"><label for="decision">Outcome</label><select id="decision" name="decision"><option value="CLEAR">Clear: not the listed party, lift the hold</option><option value="CONFIRM">Confirm: the match stands</option></select></div>
<div class="field"><label for="comment">Why</label><textarea id="comment" name="comment" required maxlength="2000" rows="3"></textarea></div>
<button type="submit">Record decision</button></form></section>`
        : html`<section class="panel"><h2>Decision</h2><p>${c.status} by ${c.decidedBy ?? '—'}: ${c.decisionComment ?? ''}</p></section>`;
    const body = html`<div class="grid">${subject}${entries}</div>${decision}`;
    return sendConsole(request, reply, 'Screening match', body);
  });

  app.post(
    '/console/screening/cases/:id',
    {
      schema: {
        params: IdParams,
        body: Type.Object({
          _csrf: Type.Optional(Type.String({ maxLength: 64 })),
          decision: StringEnum(['CLEAR', 'CONFIRM']),
          comment: Type.String({ minLength: 1, maxLength: 2000 }),
        }),
      },
    },
    async (request, reply) => {
      const body = request.body as { decision: 'CLEAR' | 'CONFIRM'; comment: string };
      await review.decide(webActor(request.session!.user), (request.params as { id: string }).id, body);
      return reply.redirect('/console/screening/cases?done=1', 303);
    },
  );
}
