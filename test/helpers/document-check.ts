/**
 * Holds every answer a test receives against the OpenAPI document its app serves: the status must be
 * documented for the operation, the content type must be one documented for that status, and a JSON body
 * must match the documented schema. A route whose answers drift from its document fails the test.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

// ajv-formats is CommonJS with a default export
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, unknown>;
type Operation = { responses?: Record<string, { content?: Record<string, { schema?: Json }> }> };
type Document = { paths: Record<string, Record<string, Operation>> };
type Template = { path: string; pattern: RegExp; literals: number };

const pointerEscape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function templatesOf(document: Document): Template[] {
  return Object.keys(document.paths).map((path) => {
    const segments = path.split('/');
    const source = segments
      .map((segment) => (/^\{.+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.+?^$()|[\]\\*]/g, '\\$&')))
      .join('/');
    return {
      path,
      pattern: new RegExp(`^${source}/?$`),
      literals: segments.filter((segment) => !segment.startsWith('{')).length,
    };
  });
}

/** What the check reads of an answer. */
export type Answer = { statusCode: number; headers: Record<string, unknown>; body: string };

export type DocumentChecker = {
  /** Describes how the answer departs from the document, or null when it conforms. */
  check(method: string, url: string, response: Answer): string | null;
};

export function documentChecker(document: Document): DocumentChecker {
  const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: true });
  addFormats(ajv);
  ajv.addSchema(document as Json, 'openapi');
  const templates = templatesOf(document);
  const validators = new Map<string, ValidateFunction>();

  function validatorFor(pointer: string): ValidateFunction {
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi#${pointer}` });
      validators.set(pointer, validate);
    }
    return validate;
  }

  // OpenAPI matches a concrete path before a templated one, then the method: a method the matched path
  // lacks is no operation of the document (the server answers 405), not the templated path's operation
  function operationFor(method: string, path: string) {
    const candidates = templates
      .filter((template) => template.pattern.test(path))
      .sort((a, b) => b.literals - a.literals);
    const template = candidates[0];
    return template ? { path: template.path, operation: document.paths[template.path]?.[method] } : null;
  }

  return {
    check(rawMethod, url, response) {
      const method = rawMethod.toLowerCase();
      const path = decodeURI(url.split('?')[0] ?? '/');
      const found = operationFor(method, path);
      if (!found?.operation) return null; // not a documented operation (pages, callbacks, unknown paths)
      const where = `${rawMethod.toUpperCase()} ${found.path} answered ${response.statusCode}`;
      const responses = found.operation.responses ?? {};
      const status = String(response.statusCode);
      const key = [status, `${status[0]}XX`, 'default'].find((candidate) => responses[candidate]);
      if (!key) return `${where}, a status its document does not list (${Object.keys(responses).join(', ')})`;
      const content = responses[key]?.content;
      const contentType = String(response.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim();
      if (!content) {
        return response.body.length === 0 ? null : `${where} with a body its document does not describe`;
      }
      if (!contentType || !content[contentType]) {
        return `${where} as ${contentType || 'no content type'}; documented: ${Object.keys(content).join(', ')}`;
      }
      if (!/[/+]json$/.test(contentType)) return null;
      const pointer = `/paths/${pointerEscape(found.path)}/${method}/responses/${key}/content/${pointerEscape(contentType)}/schema`;
      let body: unknown;
      try {
        body = JSON.parse(response.body);
      } catch {
        return `${where} with a body that is not JSON`;
      }
      const validate = validatorFor(pointer);
      if (validate(body)) return null;
      return `${where} with a body its schema refuses: ${ajv.errorsText(validate.errors)}`;
    },
  };
}

/** Makes `app.inject(options)` throw when the answer departs from the app's document. */
export function checkAnswersAgainstDocument(app: FastifyInstance): void {
  let checker: DocumentChecker | undefined;
  const original = app.inject.bind(app) as unknown as (...args: unknown[]) => unknown;
  const inject = original as (options: InjectOptions | string) => Promise<LightMyRequestResponse>;
  const checked = async (options: InjectOptions | string) => {
    const response = await inject(options);
    checker ??= documentChecker(app.swagger() as unknown as Document);
    const method = typeof options === 'string' ? 'GET' : (options.method ?? 'GET');
    const url = typeof options === 'string' ? options : String(options.url ?? options.path ?? '/');
    const drift = checker.check(String(method), url, response);
    if (drift) throw new Error(`Answer departs from the OpenAPI document: ${drift}`);
    return response;
  };
  Object.assign(app, {
    inject: (options?: InjectOptions | string, callback?: unknown) =>
      options === undefined || callback !== undefined ? original(options, callback) : checked(options),
  });
}
