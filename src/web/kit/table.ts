/** Lists: a table in its frame, previous/next links, and the page a `?page=` query asks for. */
import { escapeHtml, type Html, html } from '../../lib/html.ts';
import { when } from './parts.ts';

/**
 * A table in its frame. Each cell is labelled with its column's heading (`data-label`), which a narrow
 * screen shows beside the value when the rows are stacked as cards.
 */
export function table(headers: string[], rows: Html[], empty: string): Html {
  if (rows.length === 0) return html`<div class="tablewrap"><p class="empty">${empty}</p></div>`;
  const labelled = rows.map((row) => {
    let column = 0;
    const safe = row.safe.replace(/<td(?=[\s>])/g, () => {
      const heading = headers[column++];
      return heading ? `<td data-label="${escapeHtml(heading)}"` : '<td';
    });
    return { safe };
  });
  return html`<div class="tablewrap"><table><thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${labelled}</tbody></table></div>`;
}

/** Previous/next links that keep the other query parameters. */
export function pager(
  path: string,
  query: Record<string, string | undefined>,
  page: number,
  hasNext: boolean,
): Html {
  const link = (to: number) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
    params.set('page', String(to));
    return `${path}?${params}`;
  };
  if (page <= 1 && !hasNext) return html``;
  return html`<nav class="pager" aria-label="Pages">${when(page > 1, () => html`<a href="${link(page - 1)}">Newer</a>`)}
${when(hasNext, () => html`<a href="${link(page + 1)}">Older</a>`)}</nav>`;
}

/** The page number of a `?page=` query: a whole number from 1, else 1. */
export const pageOf = (raw: unknown, limit = 20) => {
  const page = typeof raw === 'string' && /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : 1;
  return { page, limit, offset: (page - 1) * limit };
};
