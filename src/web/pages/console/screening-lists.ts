/**
 * The sanctions list versions in force and the latest imports (imported with `npm run screening:import`;
 * nothing is fetched at run time).
 */
import type { AppContext } from '../../../context.ts';
import { type Html, html } from '../../../lib/html.ts';
import { listVersions } from '../../../modules/screening/lists.ts';
import { badge, dateTime } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { table } from '../../kit/table.ts';
import { sendConsole } from './frame.ts';

export const load = (ctx: AppContext) => listVersions(ctx.db);

const HEADERS = ['Source', 'State', 'Entries', 'Names', 'Chain addresses', 'Published', 'Imported', 'Digest'];

export function view({ inForce, recent }: Awaited<ReturnType<typeof load>>): Html {
  const row = (v: (typeof recent)[number]) =>
    html`<tr><td>${v.source}</td><td>${v.in_force ? badge('IN_FORCE') : badge('RETIRED')}</td><td>${v.entries}</td><td>${v.names}</td>
<td>${v.addresses}</td><td>${v.published_at ? dateTime(v.published_at.toISOString()) : '—'}</td><td>${dateTime(v.imported_at.toISOString())}</td><td><code>${v.digest.slice(0, 12)}</code></td></tr>`;
  return html`<p class="hint">Lists are imported on the deployment's own schedule with
<code>npm run screening:import -- --source ofac-sdn DIR</code> or <code>--source un FILE</code>; nothing is fetched at run time.</p>
<h2>In force</h2>${table(HEADERS, inForce.map(row), 'No list imported: nobody is screened.')}
<h2>Latest imports</h2>${table(HEADERS, recent.map(row), 'No imports yet.')}`;
}

export function register(app: WebApp, ctx: AppContext) {
  app.get('/console/screening/lists', async (request, reply) =>
    sendConsole(request, reply, 'Sanctions lists', view(await load(ctx))),
  );
}
