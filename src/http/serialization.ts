/**
 * Response serialisers, built when a route first answers rather than when it is registered. Building
 * every route's serialiser for each listener (two public APIs, the operator API and the dashboard) was
 * most of the time `npm start` spent before it could answer; a route never called now costs nothing, and
 * a route's first answer pays its own build once. The serialisers are fastify's own (fast-json-stringify).
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Factory = ReturnType<typeof SerializerSelector>;

export function lazySerializers(): Factory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    return (route) => {
      let serialize: ((doc: unknown) => string) | undefined;
      return (doc) => {
        serialize ??= compile(route);
        return serialize(doc);
      };
    };
  };
}
