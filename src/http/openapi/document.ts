/**
 * Completes the generated OpenAPI document in one place, so every route gets the same treatment:
 * operation names and tags, problem answers as application/problem+json, the headers every answer
 * carries, the answers the framework gives on any route (413, 503), optional bodies and request
 * examples, the `webhooks`
 * section, and the servers ordered with the listener's own environment first.
 */
import { API_VERSIONS, DEFAULT_API_VERSION } from '../../core/api-version.ts';
import { ERRORS } from '../../core/errors.ts';
import type { Environment } from '../../lib/environment.ts';
import { PROBLEM_CONTENT_TYPE } from '../problem.ts';
import { READ_EXAMPLES } from './examples.ts';
import { OPERATION_IDS, operationKey, TAG_DESCRIPTIONS } from './operations.ts';
import { REQUEST_EXAMPLES } from './request-examples.ts';
import { eventSchemas, webhooksSection } from './webhooks.ts';

type Json = Record<string, unknown>;
type Operation = {
  operationId?: string;
  parameters?: unknown[];
  tags?: string[];
  security?: unknown[];
  requestBody?: { required?: boolean; content?: Json };
  responses?: Record<string, Json>;
};

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Operations whose body may be left out entirely (the server reads none as `{}`). */
const OPTIONAL_BODIES = new Set([
  'POST /sandbox/transactions/{id}/deposit',
  'POST /sandbox/transactions/{id}/return',
  'POST /webhook-endpoints/{id}/rotate-secret',
]);

const HEADERS: Record<string, Json> = {
  'API-Version': {
    description: `The API version the answer was made under (the request's \`API-Version\`, or ${DEFAULT_API_VERSION})`,
    schema: { type: 'string', enum: [...API_VERSIONS] },
  },
  'X-Request-Id': {
    description: 'Identifies this request in logs and support; also `requestId` in problem bodies',
    schema: { type: 'string' },
  },
  'RateLimit-Limit': {
    description: 'Requests allowed in the current window for this API key',
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
  'RateLimit-Policy': {
    description: 'Burst and window of the policy, e.g. `100;w=1`',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
  Allow: {
    description: 'The methods the path serves, e.g. `GET, POST` (answers 405 `method_not_allowed`)',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description:
      'Present (`true`) when this answer is the stored answer to an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
  'WWW-Authenticate': {
    description: 'The authentication scheme expected: `Bearer`',
    schema: { type: 'string' },
  },
};

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** One title per status for problem answers; the codes a status may carry are in `Problem.code`. */
function problemDescription(status: number): string {
  const titles = Object.values(ERRORS)
    .filter((error) => error.status === status)
    .map((error) => error.title);
  return titles.length > 0 ? titles.join('; ') : 'Problem';
}

const SUCCESS_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No content',
};

function finishResponses(key: string, method: string, operation: Operation): void {
  operation.responses ??= {};
  const responses = operation.responses;
  const authenticated = (operation.security?.length ?? 0) > 0;
  // Wherever a body may be sent, the framework refuses one too large (413) or of another type (415).
  if (BODY_METHODS.has(method)) {
    responses['413'] ??= {};
    responses['415'] ??= {};
  }
  if (!responses['503']) responses['503'] = {};
  // The path answers 405 (with Allow) to any method it does not serve, as this operation's neighbour.
  responses['405'] ??= {};
  for (const [status, response] of Object.entries(responses)) {
    const code = Number(status);
    const headers: Json = { 'X-Request-Id': header('X-Request-Id'), 'API-Version': header('API-Version') };
    if (authenticated) {
      headers['RateLimit-Limit'] = header('RateLimit-Limit');
      headers['RateLimit-Remaining'] = header('RateLimit-Remaining');
      headers['RateLimit-Reset'] = header('RateLimit-Reset');
      headers['RateLimit-Policy'] = header('RateLimit-Policy');
    }
    if (code >= 400) {
      if (code === 401) headers['WWW-Authenticate'] = header('WWW-Authenticate');
      if (code === 429 || code === 503) headers['Retry-After'] = header('Retry-After');
      if (code === 405) headers.Allow = header('Allow');
      if (method === 'post' && authenticated) headers['Idempotent-Replayed'] = header('Idempotent-Replayed');
      responses[status] = {
        description: problemDescription(code),
        headers,
        content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } },
      };
      continue;
    }
    if (method === 'post' && authenticated) headers['Idempotent-Replayed'] = header('Idempotent-Replayed');
    response.headers = { ...headers, ...(response.headers as Json | undefined) };
    if (!response.description || response.description === 'Default Response') {
      response.description = SUCCESS_DESCRIPTIONS[status] ?? 'Success';
    }
    const example = status === '200' ? READ_EXAMPLES[key] : undefined;
    const json = (response.content as Record<string, Json> | undefined)?.['application/json'];
    if (example !== undefined && json) json.example = example;
  }
}

function finishOperation(path: string, method: string, operation: Operation): void {
  const key = operationKey(method, path);
  operation.operationId ??= OPERATION_IDS[key];
  operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/ApiVersion' }];
  if (operation.requestBody && OPTIONAL_BODIES.has(key)) operation.requestBody.required = false;
  const json = operation.requestBody?.content?.['application/json'] as Json | undefined;
  if (json && REQUEST_EXAMPLES[key]) json.examples = REQUEST_EXAMPLES[key];
  finishResponses(key, method, operation);
}

/** The servers, the listener's own environment first (generators take `servers[0]` as the default). */
export function serversFor(environment: Environment, urls: Record<Environment, URL>) {
  const production = { url: urls.production.origin, description: 'Production' };
  const sandbox = { url: urls.sandbox.origin, description: 'Sandbox' };
  return environment === 'sandbox' ? [sandbox, production] : [production, sandbox];
}

export function finishDocument<T extends object>(document: T): T {
  const doc = document as Json & { paths?: Record<string, Record<string, Operation>>; components?: Json };
  const used = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      finishOperation(path, method, operation);
      for (const tag of operation.tags ?? []) used.add(tag);
    }
  }
  used.add('webhooks');
  const known = Object.keys(TAG_DESCRIPTIONS).filter((tag) => used.has(tag));
  const unknown = [...used].filter((tag) => !(tag in TAG_DESCRIPTIONS));
  doc.tags = [
    ...known.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    ...unknown.map((name) => ({ name })),
  ];
  doc.components ??= {};
  const components = doc.components as Json & { schemas?: Json };
  components.headers = HEADERS;
  components.parameters = {
    ApiVersion: {
      name: 'API-Version',
      in: 'header',
      required: false,
      description: `The API version to serve this request under; without it, ${DEFAULT_API_VERSION} (which never changes)`,
      schema: { type: 'string', enum: [...API_VERSIONS], default: DEFAULT_API_VERSION },
    },
  };
  components.schemas = { ...components.schemas, ...eventSchemas() };
  doc.webhooks = webhooksSection();
  return document;
}
