/**
 * The methods served on each path, collected as routes are added, so that a request for a known path
 * with a method it does not serve is answered 405 with `Allow` rather than 404.
 */
import type { FastifyInstance } from 'fastify';

type Entry = { pattern: RegExp; methods: Set<string> };

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

export function trackRoutes(app: FastifyInstance): { methodsFor(path: string): string[] } {
  const entries = new Map<string, Entry>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let entry = entries.get(route.url);
    if (!entry) {
      entry = { pattern: patternOf(route.url), methods: new Set() };
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
  };
}
