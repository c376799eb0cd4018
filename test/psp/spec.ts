/**
 * Every request the simulator receives on an API Pix route is checked against the Banco Central's
 * published document (`specs/bcb-pix-api/openapi.yaml`, API Pix 2.9.0): the operation must exist, and
 * its path parameters, query parameters and body must satisfy the document's schemas. Anything else is a
 * violation, which the simulator records and answers 400 (and the tests assert none occurred).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

export const SPEC_PATH = fileURLToPath(
  new URL('../../../../shared/specs/bcb-pix-api/openapi.yaml', import.meta.url),
);

type Parameter = { name: string; in: string; required?: boolean; schema: unknown; $ref?: string };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { $ref?: string; required?: boolean; content?: unknown };
};
type PathItem = Record<string, unknown> & { parameters?: Parameter[] };
type Doc = { paths: Record<string, PathItem>; components: Record<string, Record<string, unknown>> };

function specPath(): string {
  const candidates = [process.env.PONTE_PIX_SPEC, SPEC_PATH, '/work/shared/specs/bcb-pix-api/openapi.yaml'];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      readFileSync(candidate);
      return candidate;
    } catch {}
  }
  throw new Error('the API Pix document (specs/bcb-pix-api/openapi.yaml) was not found; set PONTE_PIX_SPEC');
}

/**
 * A few patterns of the document are written as JavaScript regex literals (`/^\\d{11}$/` for a CPF),
 * which as JSON Schema patterns no string could match; they are read as the expression between the
 * slashes, which is what they mean.
 */
function unslash(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) unslash(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const object = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(object)) {
    if (key === 'pattern' && typeof value === 'string' && /^\/.+\/$/.test(value))
      object[key] = value.slice(1, -1);
    else unslash(value);
  }
}

export function createSpecValidator() {
  const doc = parse(readFileSync(specPath(), 'utf8')) as Doc;
  unslash(doc);
  const ajv = new Ajv({ strict: false, allErrors: false, coerceTypes: false, validateFormats: true });
  addFormats.default(ajv);
  ajv.addSchema(doc as object, 'spec');
  const compiled = new Map<string, ValidateFunction>();
  const compile = (ref: string) => {
    let fn = compiled.get(ref);
    if (!fn) {
      fn = ajv.compile({ $ref: `spec#${ref}` });
      compiled.set(ref, fn);
    }
    return fn;
  };
  const pointer = (...parts: string[]) =>
    `/${parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
  const templates = Object.keys(doc.paths).map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '([^/]+)')}$`),
    names: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
  }));

  function resolveParameter(p: Parameter, where: string): { p: Parameter; ref: string } {
    if (p.$ref) {
      const name = p.$ref.split('/').pop()!;
      return {
        p: doc.components.parameters![name] as Parameter,
        ref: `/components/parameters/${pointer(name).slice(1)}/schema`,
      };
    }
    return { p, ref: `${where}/schema` };
  }

  function coerce(value: string, schema: unknown): unknown {
    const type = (schema as { type?: string }).type;
    if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    if (type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
    return value;
  }

  /** The violations of one request (empty: it conforms). `path` is relative to the API's root. */
  function check(method: string, path: string, query: URLSearchParams, body: unknown): string[] {
    const lower = method.toLowerCase();
    const matches = templates
      .map((t) => ({ t, m: t.regex.exec(path) }))
      .filter((x) => x.m && doc.paths[x.t.template]![lower]);
    // the most specific template: fewest parameters
    matches.sort((a, b) => a.t.names.length - b.t.names.length);
    const found = matches[0];
    if (!found) return [`${method} ${path}: no such operation in the API Pix document`];
    const { template, names } = found.t;
    const item = doc.paths[template]!;
    const op = item[lower] as Operation;
    const base = pointer('paths', template);
    const errors: string[] = [];
    const params = [
      ...(item.parameters ?? []).map((p, i) => resolveParameter(p, `${base}/parameters/${i}`)),
      ...(op.parameters ?? []).map((p, i) => resolveParameter(p, `${base}/${lower}/parameters/${i}`)),
    ];
    const known = new Set<string>();
    for (const { p, ref } of params) {
      let raw: string | null;
      if (p.in === 'path') raw = decodeURIComponent(found.m![names.indexOf(p.name) + 1] ?? '');
      else if (p.in === 'query') raw = query.get(p.name);
      else continue;
      known.add(`${p.in}:${p.name}`);
      if (raw === null) {
        if (p.required) errors.push(`${method} ${template}: query parameter ${p.name} is required`);
        continue;
      }
      const validate = compile(ref);
      if (!validate(coerce(raw, p.schema))) {
        errors.push(`${method} ${template}: ${p.in} ${p.name}=${raw} ${ajv.errorsText(validate.errors)}`);
      }
    }
    for (const name of query.keys()) {
      if (!known.has(`query:${name}`)) errors.push(`${method} ${template}: unknown query parameter ${name}`);
    }
    if (op.requestBody) {
      const rb = op.requestBody.$ref
        ? `/components/requestBodies/${op.requestBody.$ref.split('/').pop()}`
        : `${base}/${lower}/requestBody`;
      const required = op.requestBody.$ref
        ? (doc.components.requestBodies![op.requestBody.$ref.split('/').pop()!] as { required?: boolean })
            .required
        : op.requestBody.required;
      if (body === undefined) {
        if (required) errors.push(`${method} ${template}: a body is required`);
      } else {
        const validate = compile(`${rb}/content/application~1json/schema`);
        if (!validate(body)) errors.push(`${method} ${template}: body ${ajv.errorsText(validate.errors)}`);
      }
    } else if (body !== undefined) {
      errors.push(`${method} ${template}: takes no body`);
    }
    return errors;
  }

  return { check };
}
