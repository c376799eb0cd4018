/**
 * The methods served on each path, collected as routes are added, so that a request for a known path
 * with a method it does not serve is answered 405 with `Allow` rather than 404.
 */
import type { FastifyInstance } from 'fastify';

type Entry = { url: string; pattern: RegExp; methods: Set<string>; rank: number[] };

const escapeRegExp = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** `/customers/:id/documents` → a regular expression matching concrete paths of that shape. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) return '[^/]+';
      if (segment === '*') return '.*';
      return escapeRegExp(segment);
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/** How the router prefers a route, segment by segment from the left: a fixed segment, then a parameter, then `*`. */
const rankOf = (url: string) =>
  url.split('/').map((segment) => (segment === '*' ? 0 : segment.startsWith(':') ? 1 : 2));

function prefers(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

export function trackRoutes(app: FastifyInstance): {
  methodsFor(path: string): string[];
  /**
   * The methods of the path's own route when the router matched a request to another, broader one
   * (`GET /transactions/on-ramp` matched by `GET /transactions/:id`): the request names that path, whose
   * route lacks its method. Undefined when the matched route is the path's own.
   */
  shadowedBy(path: string, matchedUrl: string): string[] | undefined;
} {
  const entries = new Map<string, Entry>();
  const preferred = new Map<string, Entry[]>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let entry = entries.get(route.url);
    if (!entry) {
      entry = { url: route.url, pattern: patternOf(route.url), methods: new Set(), rank: rankOf(route.url) };
      entries.set(route.url, entry);
    }
    for (const method of methods) entry.methods.add(method.toUpperCase());
  });
  return {
    methodsFor(path) {
      const allowed = new Set<string>();
      for (const entry of entries.values()) {
        if (entry.pattern.test(path)) for (const method of entry.methods) allowed.add(method);
      }
      return [...allowed].sort();
    },
    shadowedBy(path, matchedUrl) {
      let candidates = preferred.get(matchedUrl);
      if (!candidates) {
        // the routes the router prefers to this one on a path both match, most preferred first
        const matched = entries.get(matchedUrl);
        candidates = matched
          ? [...entries.values()]
              .filter(
                (entry) => entry.rank.length === matched.rank.length && prefers(entry.rank, matched.rank),
              )
              .sort((a, b) => (prefers(a.rank, b.rank) ? -1 : prefers(b.rank, a.rank) ? 1 : 0))
          : [];
        preferred.set(matchedUrl, candidates);
      }
      for (const entry of candidates) if (entry.pattern.test(path)) return [...entry.methods].sort();
      return undefined;
    },
  };
}
