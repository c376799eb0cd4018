/**
 * Request validation. Bodies are checked strictly (no type coercion, unknown fields refused, every
 * problem reported); path, query and headers arrive as text, so those are coerced to the declared types.
 */
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats ships CommonJS; its default export arrives wrapped under NodeNext resolution.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const base: Options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false };

const strictAjv = addFormats(new Ajv({ ...base, coerceTypes: false }));
const coercingAjv = addFormats(new Ajv({ ...base, coerceTypes: 'array' }));

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strictAjv : coercingAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};
