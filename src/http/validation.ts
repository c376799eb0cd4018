/**
 * Request validation. Bodies are checked strictly (no type coercion, unknown fields refused, every
 * problem reported); path, query and headers arrive as text, so those are coerced to the declared types.
 *
 * Rules the database imposes are enforced here, once, for every route (src/core/storable.ts): every
 * string of a body, query or path (object keys included) must be storable text; `uuid` means the
 * canonical form only; `date` and `date-time` must fall within the years 0001-9999.
 */
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { CANONICAL_UUID, dateInRange, instantInRange, textProblem } from '../core/storable.ts';

// ajv-formats ships CommonJS; its default export arrives wrapped under NodeNext resolution.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

// verbose: each error carries the schema that failed, whose `x-expected` hint the problem shows
const base: Options = {
  allErrors: true,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
  verbose: true,
};

function withStorableFormats(ajv: Ajv): Ajv {
  addFormats(ajv);
  const date = ajv.formats.date as { validate: (value: string) => boolean };
  const dateTime = ajv.formats['date-time'] as { validate: (value: string) => boolean };
  ajv.addFormat('uuid', CANONICAL_UUID);
  ajv.addFormat('date', { validate: (value: string) => date.validate(value) && dateInRange(value) });
  ajv.addFormat('date-time', {
    validate: (value: string) => dateTime.validate(value) && instantInRange(value),
  });
  return ajv;
}

const strictAjv = withStorableFormats(new Ajv({ ...base, coerceTypes: false }));

const coercingAjv = withStorableFormats(new Ajv({ ...base, coerceTypes: 'array' }));

type TextError = { instancePath: string; keyword: 'text'; params: object; message: string };

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** A key that cannot be stored, with its offending code units spelled out so the pointer can be shown. */
const printable = (key: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what is looked for
  key.replace(/[\u0000\uD800-\uDFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * How deep an input may nest (objects and arrays within one another). Partner data a route takes as is
 * (a transfer's `metadata`) is otherwise unbounded in depth, and code that walks a value recursively
 * (fingerprints, serialisers) would exhaust its stack on one nested thousands deep.
 */
export const MAX_INPUT_DEPTH = 32;

/**
 * Every string (value or key) of a parsed input that cannot be stored, and every value nested deeper
 * than MAX_INPUT_DEPTH, located by JSON pointer.
 */
export function unstorableText(data: unknown): TextError[] {
  const errors: TextError[] = [];
  // An explicit stack: a deeply nested body must not exhaust the call stack.
  const stack: [unknown, string, number][] = [[data, '', 0]];
  while (stack.length > 0) {
    const [value, path, depth] = stack.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) errors.push({ instancePath: path, keyword: 'text', params: {}, message: problem });
      continue;
    }
    const container =
      Array.isArray(value) || (value !== null && typeof value === 'object' && !Buffer.isBuffer(value));
    if (container && depth >= MAX_INPUT_DEPTH) {
      errors.push({
        instancePath: path,
        keyword: 'text',
        params: {},
        message: `must not nest objects or arrays more than ${MAX_INPUT_DEPTH} levels deep`,
      });
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push([value[i], `${path}/${i}`, depth + 1]);
    } else if (container) {
      for (const [key, item] of Object.entries(value as object)) {
        const problem = textProblem(key);
        const at = `${path}/${escapePointer(problem ? printable(key) : key)}`;
        if (problem) errors.push({ instancePath: at, keyword: 'text', params: {}, message: problem });
        else stack.push([item, at, depth + 1]);
      }
    }
  }
  return errors;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strictAjv : coercingAjv;
  // Compiled when the route first validates: a listener's routes are registered at start, most of them
  // never called by a given process, and compiling them all was a large share of its start.
  let validate: ValidateFunction | undefined;
  const checked = (data: unknown) => {
    validate ??= ajv.compile(schema as object);
    const textErrors = unstorableText(data);
    if (textErrors.length > 0) {
      checked.errors = textErrors as unknown;
      return false;
    }
    const valid = validate(data);
    checked.errors = validate.errors as unknown;
    return valid;
  };
  checked.errors = null as unknown;
  return checked as unknown as ReturnType<FastifySchemaCompiler<unknown>>;
};
