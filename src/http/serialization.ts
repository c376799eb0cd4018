/**
 * Response serialisers, built when a route first answers rather than when it is registered. Building
 * every route's serialiser for each listener (two public APIs, the operator API and the dashboard) was
 * most of the time `npm start` spent before it could answer; a route never called now costs nothing, and
 * a route's first answer pays its own build once. The serialisers are fastify's own (fast-json-stringify).
 *
 * They read the schemas with nullable scalars as a list of types (`serialisedAs`): the document and the
 * validation keep the schemas as written.
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Factory = ReturnType<typeof SerializerSelector>;

const SCALARS: ReadonlySet<unknown> = new Set(['string', 'integer', 'number', 'boolean']);
const BRANCHES = ['anyOf', 'oneOf', 'allOf', '$ref'];

/** `anyOf: [X, null]` (TypeBox's `Nullable`) of a scalar `X`: X itself, or undefined. */
function nullableScalar(node: Record<string, unknown>): Record<string, unknown> | undefined {
  const options = node.anyOf;
  if (!Array.isArray(options) || options.length !== 2) return undefined;
  const [value, none] = options as Record<string, unknown>[];
  if (none?.type !== 'null' || Object.keys(none).length !== 1) return undefined;
  if (!value || !SCALARS.has(value.type) || BRANCHES.some((key) => key in value)) return undefined;
  return value;
}

/**
 * A copy of a schema as the serialiser reads it, every nullable scalar (`anyOf: [X, null]`) written as X
 * with the types `[X's type, 'null']`: the same text for every value the schema allows. fast-json-stringify
 * chooses an `anyOf` branch by validating the value against each in turn, which checked the format of
 * every nullable timestamp of every answer (a fifth of serialising a page of customers); with a list of
 * types it looks at the value's type only.
 */
export function serialisedAs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(serialisedAs);
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as Record<string, unknown>;
  const value = nullableScalar(node);
  if (value) {
    const { anyOf: _, ...siblings } = node;
    // an enumeration lists null among its values, or a null would match neither branch of an `anyOf` above
    const values = Array.isArray(value.enum) ? { enum: [...value.enum, null] } : {};
    return { ...siblings, ...value, ...values, type: [value.type, 'null'] };
  }
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(node)) copy[key] = serialisedAs(child);
  return copy;
}

export function lazySerializers(): Factory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const external = externalSchemas && (serialisedAs(externalSchemas) as typeof externalSchemas);
    const compile = build(external, options);
    return (route) => {
      let serialize: ((doc: unknown) => string) | undefined;
      return (doc) => {
        serialize ??= compile({ ...route, schema: serialisedAs(route.schema) as typeof route.schema });
        return serialize(doc);
      };
    };
  };
}
