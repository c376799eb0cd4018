import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/core/errors.ts';
import { TAG_DESCRIPTIONS } from '../../src/http/openapi/operations.ts';
import { EVENT_TYPES } from '../../src/modules/events/outbox.ts';
import { type Answer, documentChecker } from '../helpers/document-check.ts';
import { individualBody } from '../helpers/factories.ts';
import { startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';

type Operation = {
  operationId?: string;
  tags?: string[];
  requestBody?: { required?: boolean };
  parameters?: { name: string; in: string; schema: { type?: string } }[];
  responses: Record<
    string,
    { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }
  >;
};
type Document = {
  servers: { url: string; description: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<
    string,
    { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }
  >;
  components: { schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }> };
};

let server: TestServer;
let tenant: Tenant;
const documents: Record<'sandbox' | 'production', Document> = {} as never;

beforeAll(async () => {
  server = await startTestServer({ workers: false });
  tenant = await server.newTenant();
  for (const environment of ['sandbox', 'production'] as const) {
    documents[environment] = (
      await server.app(environment).inject({ method: 'GET', url: '/openapi.json' })
    ).json();
  }
});
afterAll(() => server.close());

const operations = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      route: `${method.toUpperCase()} ${path}`,
      operation,
    })),
  );

describe('the OpenAPI document', () => {
  it('names every operation and tags it with a described tag (new routes need an entry in src/http/openapi/operations.ts)', () => {
    for (const document of Object.values(documents)) {
      const described = new Map(document.tags.map((tag) => [tag.name, tag.description]));
      const unnamed = operations(document)
        .filter(({ operation }) => !operation.operationId)
        .map(({ route }) => route);
      expect(unnamed, 'operations without an operationId').toEqual([]);
      const untagged = operations(document)
        .filter(
          ({ operation }) => !operation.tags?.length || operation.tags.some((tag) => !described.get(tag)),
        )
        .map(({ route, operation }) => `${route} [${operation.tags?.join(', ') ?? ''}]`);
      expect(untagged, 'operations without a tag described in TAG_DESCRIPTIONS').toEqual([]);
      const ids = operations(document).map(({ operation }) => operation.operationId);
      expect(new Set(ids).size).toBe(ids.length);
    }
    expect(Object.keys(TAG_DESCRIPTIONS)).toContain('webhooks');
  });

  it('documents every error answer as application/problem+json with the Problem schema', () => {
    for (const { route, operation } of operations(documents.sandbox)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        expect(Object.keys(response.content ?? {}), `${route} ${status}`).toEqual([
          'application/problem+json',
        ]);
        expect(response.content?.['application/problem+json']?.schema).toEqual({
          $ref: '#/components/schemas/Problem',
        });
      }
    }
    const content = documents.sandbox.paths['/customers/{id}/documents/{documentId}/content']?.get;
    expect(Object.keys(content?.responses['404']?.content ?? {})).toEqual(['application/problem+json']);
  });

  it('types Problem.code as the closed set of error codes', () => {
    expect(documents.sandbox.components.schemas.Problem?.properties?.code?.enum).toEqual(Object.keys(ERRORS));
  });

  it('documents the headers answers carry, 413 and 415 wherever a body may be sent, and 503 everywhere', () => {
    const create = documents.sandbox.paths['/customers']?.post;
    expect(Object.keys(create?.responses['201']?.headers ?? {})).toEqual(
      expect.arrayContaining([
        'X-Request-Id',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'Idempotent-Replayed',
      ]),
    );
    expect(Object.keys(create?.responses['401']?.headers ?? {})).toContain('WWW-Authenticate');
    expect(Object.keys(create?.responses['429']?.headers ?? {})).toContain('Retry-After');
    expect(Object.keys(create?.responses ?? {})).toEqual(expect.arrayContaining(['413', '415', '503']));
    for (const { route, operation } of operations(documents.sandbox)) {
      expect(Object.keys(operation.responses), route).toContain('503');
    }
  });

  it('types cursor as a string, as nextCursor is', () => {
    const list = documents.sandbox.paths['/customers/{id}/limit-requests']?.get;
    const cursor = list?.parameters?.find((parameter) => parameter.name === 'cursor');
    expect(cursor?.schema.type).toBe('string');
    const page = list?.parameters?.find((parameter) => parameter.name === 'page');
    expect(page?.schema.type).toBe('integer');
  });

  it("lists the listener's own environment first in servers", () => {
    expect(documents.sandbox.servers.map((server) => server.description)).toEqual(['Sandbox', 'Production']);
    expect(documents.production.servers.map((server) => server.description)).toEqual([
      'Production',
      'Sandbox',
    ]);
  });

  it('makes the body of the sandbox deposit optional', () => {
    expect(documents.sandbox.paths['/sandbox/transactions/{id}/deposit']?.post?.requestBody?.required).toBe(
      false,
    );
  });

  it('publishes the webhook secret rotation, its body optional and its answer carrying the new secret', () => {
    for (const document of Object.values(documents)) {
      const operation = document.paths['/webhook-endpoints/{id}/rotate-secret']?.post;
      expect(operation?.operationId).toBe('rotateWebhookEndpointSecret');
      expect(operation?.requestBody?.required).toBe(false);
      expect(JSON.stringify(operation?.responses['200'])).toContain('"secret"');
    }
  });

  it('documents the health checks the README names, without an API key', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const operation = documents.sandbox.paths[path]?.get;
      expect(operation?.operationId, path).toBeDefined();
      expect(operation?.tags).toEqual(['health']);
      expect((operation as { security?: unknown[] } | undefined)?.security ?? []).toEqual([]);
      expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['200', '503']));
      expect((await server.sandbox.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    }
  });

  it('documents 405 method_not_allowed, with Allow, on every operation', () => {
    for (const { route, operation } of operations(documents.sandbox)) {
      expect(Object.keys(operation.responses), route).toContain('405');
      expect(Object.keys(operation.responses['405']?.headers ?? {}), route).toContain('Allow');
    }
  });

  it('describes every event and its payload in webhooks', () => {
    expect(Object.keys(documents.sandbox.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const ref = documents.sandbox.webhooks[type]?.post.requestBody.content['application/json']?.schema.$ref;
      const name = ref?.split('/').pop() ?? '';
      const schema = documents.sandbox.components.schemas[name];
      expect(schema?.properties?.eventType?.enum, type).toEqual([type]);
    }
  });
});

/**
 * A path of the document with its parameters filled in: a customer's id where one is named (an upload
 * reads its body once the customer is found), elsewhere ids that name nothing.
 */
const concretePath = (path: string, customerId: string) =>
  path
    .replace(/^\/customers\/\{id\}/, `/customers/${customerId}`)
    .replace('{address}', '0x52908400098527886E0F7030069857D2E4169EE7')
    .replace(/\{[^}]+\}/g, '01a2f000-0000-7000-8000-000000000000');

/** `curl ... -X METHOD $PONTE/path ...` commands of the README against the public API, with whether they send a body. */
function readmeCalls(): { route: string; sendsBody: boolean; command: string }[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
  // one command per entry: continuation lines joined, each curl cut where the next begins
  const commands = blocks.flatMap((block) =>
    block
      .replace(/\\\n/g, ' ')
      .split('\n')
      .flatMap((line) => line.split(/(?=curl )/).filter((part) => part.startsWith('curl '))),
  );
  return commands.flatMap((command) => {
    const url = /"?\$PONTE(\/[^\s"'?]*)/.exec(command)?.[1];
    if (!url) return [];
    const method = /-X (\w+)/.exec(command)?.[1] ?? 'GET';
    return [{ route: `${method} ${url}`, sendsBody: /\s(-d|-F|--data)\s/.test(command), command }];
  });
}

/** The document's path a README path names (`$CUSTOMER_ID` and the like in place of each parameter). */
function documentedRoute(document: Document, route: string): string | undefined {
  const [method, path] = route.split(' ') as [string, string];
  const segments = path.split('/');
  const found = Object.keys(document.paths).find((template) => {
    const parts = template.split('/');
    return (
      parts.length === segments.length &&
      parts.every((part, i) => (part.startsWith('{') ? segments[i]!.startsWith('$') : part === segments[i]))
    );
  });
  return found && `${method} ${found}`;
}

describe('request bodies', () => {
  it('are optional in the document exactly where the server takes a request without one', async () => {
    const customer = await server.sandbox.inject({
      method: 'POST',
      url: '/customers',
      headers: { authorization: `Bearer ${tenant.sandboxKey}` },
      payload: individualBody(),
    });
    const wrong: string[] = [];
    for (const { route, operation } of operations(documents.sandbox)) {
      if (!operation.requestBody) continue;
      const [method, path] = route.split(' ') as [string, string];
      const answer = await server.sandbox.inject({
        method: method as 'POST',
        url: concretePath(path, customer.json().id),
        headers: { authorization: `Bearer ${tenant.sandboxKey}` },
      });
      // refused for its missing body: 400 naming it, or 415 where it must come as a form
      const bodyRefused =
        answer.statusCode === 415 ||
        (answer.statusCode === 400 &&
          (answer.json().errors ?? []).some((error: { pointer: string }) =>
            error.pointer.startsWith('/body'),
          ));
      const required = operation.requestBody.required !== false;
      if (required !== bodyRefused) {
        wrong.push(`${route}: documented ${required ? 'required' : 'optional'}, answered ${answer.body}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("are sent by the README's commands exactly where an operation declares one, and never left out where it is required", () => {
    const calls = readmeCalls();
    expect(calls.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const call of calls) {
      const route = documentedRoute(documents.sandbox, call.route);
      if (!route) {
        wrong.push(`not in the document: ${call.command}`);
        continue;
      }
      const [method, path] = route.split(' ') as [string, string];
      const body = documents.sandbox.paths[path]?.[method.toLowerCase()]?.requestBody;
      if (call.sendsBody && !body) wrong.push(`sends a body ${route} does not take: ${call.command}`);
      if (!call.sendsBody && body && body.required !== false) {
        wrong.push(`leaves out the body ${route} requires: ${call.command}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('a wrong method on a known path', () => {
  it('answers 405 method_not_allowed with Allow, as problem+json', async () => {
    const response = await server.sandbox.inject({ method: 'PUT', url: '/customers' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, POST');
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ status: 405, code: 'method_not_allowed' });
    const item = await server.sandbox.inject({
      method: 'DELETE',
      url: '/customers/00000000-0000-4000-8000-000000000000',
    });
    expect(item.statusCode).toBe(405);
    expect(item.headers.allow).toBe('GET, HEAD');
  });

  it('still answers 404 for a path no route serves', async () => {
    const response = await server.sandbox.inject({ method: 'PUT', url: '/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('not_found');
  });
});

describe('the check of live answers against the document', () => {
  const document = {
    paths: {
      '/things/{id}': {
        get: {
          responses: {
            '200': {
              content: {
                'application/json': {
                  schema: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
                },
              },
            },
            '404': { content: { 'application/problem+json': { schema: { type: 'object' } } } },
          },
        },
      },
    },
  };
  const answer = (statusCode: number, contentType: string, body: unknown) =>
    ({
      statusCode,
      headers: { 'content-type': contentType },
      body: JSON.stringify(body),
    }) as Answer;
  const checker = documentChecker(document);

  it('accepts an answer that matches its document', () => {
    expect(
      checker.check('GET', '/things/1', answer(200, 'application/json; charset=utf-8', { id: '1' })),
    ).toBeNull();
  });

  it('refuses an undocumented status, another content type and a body the schema refuses', () => {
    expect(checker.check('GET', '/things/1', answer(409, 'application/problem+json', {}))).toMatch(
      /does not list/,
    );
    expect(checker.check('GET', '/things/1', answer(404, 'application/json', {}))).toMatch(
      /documented: application\/problem\+json/,
    );
    expect(checker.check('GET', '/things/1', answer(200, 'application/json', { id: 1 }))).toMatch(
      /schema refuses/,
    );
  });

  it('leaves paths the document does not describe alone', () => {
    expect(checker.check('GET', '/elsewhere', answer(500, 'text/html', 'x'))).toBeNull();
  });
});
