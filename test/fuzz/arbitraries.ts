/**
 * Malformed requests for one OpenAPI operation: path parameters, query, headers and body drawn from
 * junk and from near-misses of what the operation declares (its field names with values of any type).
 */
import fc from 'fast-check';

export type Operation = {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
  bodyMediaType: string | null;
};

type OpenApiParameter = { in: string; name: string };
type OpenApiOperation = {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: { $ref?: string; properties?: object } }> };
};
type OpenApiDocument = {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, { properties?: object }> };
};

/** Every operation of a generated OpenAPI document. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = op.parameters ?? [];
      const [mediaType, content] = Object.entries(op.requestBody?.content ?? {})[0] ?? [null, undefined];
      let schema = content?.schema;
      if (schema?.$ref) schema = doc.components?.schemas?.[schema.$ref.split('/').pop()!];
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        bodyFields: Object.keys(schema?.properties ?? {}),
        bodyMediaType: mediaType,
      });
    }
  }
  return operations;
}

export type FuzzRequest = {
  url: string;
  headers: Record<string, string>;
  payload?: string;
  auth: 'valid' | 'none' | 'junk' | 'other-environment';
};

const junkText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', ' ', '0', '-1', '1e309', 'null', 'true', '../..', '%00', "' OR 1=1 --", '😀', 'NaN'),
);

const anyJson = fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 3 });

/** A value for a known path parameter: an id that exists, a random UUID, or junk. */
const pathValue = (realIds: string[]) =>
  fc.oneof(
    fc.constantFrom(...realIds),
    fc.uuid(),
    junkText.filter((text) => text.length > 0),
  );

const queryValue = fc.oneof(
  junkText,
  fc.integer({ min: -5, max: 100 }).map(String),
  fc.constantFrom('true', 'false', '1.5', '51', '0'),
);

function body(op: Operation) {
  const shaped =
    op.bodyFields.length === 0
      ? fc.constant({})
      : fc.dictionary(fc.constantFrom(...op.bodyFields, 'unknownField'), anyJson, { maxKeys: 6 });
  return fc.oneof(
    shaped.map((value) => ({ type: 'application/json', text: JSON.stringify(value) })),
    anyJson.map((value) => ({ type: 'application/json', text: JSON.stringify(value) })),
    junkText.map((text) => ({ type: 'application/json', text })),
    fc.constantFrom(
      { type: 'text/plain', text: 'hello' },
      { type: 'application/x-www-form-urlencoded', text: 'a=1&b=2' },
      {
        type: 'multipart/form-data; boundary=x',
        text: '--x\r\nContent-Disposition: form-data\r\n\r\n1\r\n--x--',
      },
      { type: 'multipart/form-data', text: 'garbage' },
      { type: 'application/json', text: '{"a":'.repeat(50) },
      { type: 'application/octet-stream', text: '\u0000\u0001' },
    ),
  );
}

export function requestFor(op: Operation, realIds: string[]): fc.Arbitrary<FuzzRequest> {
  const params = fc.tuple(...op.pathParams.map(() => pathValue(realIds)));
  const query = fc.dictionary(
    fc.oneof(fc.constantFrom(...op.queryParams, 'extra'), fc.string({ minLength: 1, maxLength: 8 })),
    queryValue,
    { maxKeys: 3 },
  );
  const idempotencyKey = fc.option(fc.oneof(fc.string({ maxLength: 300 }), fc.constant('k'.repeat(256))));
  const auth = fc.oneof(
    { arbitrary: fc.constant<FuzzRequest['auth']>('valid'), weight: 8 },
    fc.constantFrom<FuzzRequest['auth']>('none', 'junk', 'other-environment'),
  );
  const hasBody = op.method === 'POST' || op.method === 'PUT' || op.method === 'PATCH';
  return fc
    .record({
      params,
      query,
      idempotencyKey,
      auth,
      body: hasBody ? fc.option(body(op), { freq: 8 }) : fc.constant(null),
    })
    .map(({ params, query, idempotencyKey, auth, body }) => {
      let path = op.path;
      op.pathParams.forEach((name, i) => {
        path = path.replace(`{${name}}`, encodeURIComponent(params[i]!));
      });
      const search = new URLSearchParams(query).toString();
      const headers: Record<string, string> = {};
      if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
      if (body) headers['content-type'] = body.type;
      return {
        url: search ? `${path}?${search}` : path,
        headers,
        ...(body ? { payload: body.text } : {}),
        auth,
      };
    });
}
