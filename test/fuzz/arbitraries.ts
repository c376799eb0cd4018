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

/**
 * The classes of input a database refuses, which the API must refuse first: control characters
 * (NUL above all), UTF-16 surrogates without their pair, integers past any range, UUIDs in forms other
 * than the canonical one, and dates outside the years a database or a clock can name.
 */
const controlText = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0, max: 31 }).map((code) => String.fromCharCode(code)), minLength: 1 }),
  fc.constantFrom('\u0000', 'a\u0000b', 'Ana\u0000', '\u007f', '\u001b[31m'),
);
const surrogateText = fc.oneof(
  fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => `x${String.fromCharCode(code)}y`),
  fc.constantFrom('\ud800', '\udfff', '\ud83d', 'a\udc00', '\udc00\ud800'),
);
const hugeIntegerText = fc.oneof(
  fc.bigInt({ min: 2n ** 53n, max: 10n ** 30n }).map(String),
  fc.constantFrom('99999999999999999999', '-99999999999999999999', '9007199254740993', '2147483648', '1e20'),
);
const oddUuid = (ids: fc.Arbitrary<string>) =>
  fc.oneof(
    ids.map((id) => `urn:uuid:${id}`),
    ids.map((id) => `{${id}}`),
    ids.map((id) => `URN:UUID:${id.toUpperCase()}`),
    ids.map((id) => id.replace(/-/g, '')),
  );
const extremeDate = fc.constantFrom(
  '0000-01-01',
  '0000-02-29',
  '9999-12-31',
  '10000-01-01',
  '-000001-01-01',
  '2024-02-30',
  '0000-12-31T23:00:00Z',
  '0001-01-01T00:30:00+01:00',
  '2024-12-31T23:59:60Z',
  '9999-12-31T23:59:59-01:00',
  '+275760-09-13T00:00:00Z',
);
const hostileText = fc.oneof(controlText, surrogateText, hugeIntegerText, oddUuid(fc.uuid()), extremeDate);

const junkText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', ' ', '0', '-1', '1e309', 'null', 'true', '../..', '%00', "' OR 1=1 --", '😀', 'NaN'),
  hostileText,
);

const hugeNumber = fc.constantFrom(1e20, -1e20, 2 ** 53 + 2, Number.MAX_VALUE, 2 ** 31);

const anyJson = fc.oneof(
  { arbitrary: fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 3 }), weight: 2 },
  hostileText,
  hugeNumber,
  fc.dictionary(fc.oneof(fc.string({ maxLength: 5 }), controlText, surrogateText), hostileText, {
    maxKeys: 3,
  }),
);

/** A value for a known path parameter: an id that exists (in any form), a random UUID, or junk. */
const pathValue = (realIds: string[]) =>
  fc.oneof(
    fc.constantFrom(...realIds),
    fc.uuid(),
    oddUuid(fc.constantFrom(...realIds)),
    fc.string({ minLength: 101, maxLength: 200 }),
    junkText.filter((text) => text.length > 0),
  );

const queryValue = (realIds: string[]) =>
  fc.oneof(
    junkText,
    fc.integer({ min: -5, max: 100 }).map(String),
    fc.constantFrom('true', 'false', '1.5', '51', '0'),
    hugeIntegerText,
    oddUuid(fc.constantFrom(...realIds)),
    controlText,
    extremeDate,
  );

/**
 * Percent-encodes a path segment the way a hostile client may: an unpaired surrogate goes out as the
 * three bytes UTF-8 would give it, which no decoder accepts.
 */
function encodeSegment(text: string): string {
  return text.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]|[\s\S]/g, (c) => {
    const code = c.charCodeAt(0);
    if (c.length === 2 || code < 0xd800 || code > 0xdfff) return encodeURIComponent(c);
    const bytes = [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
    return bytes.map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
  });
}

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
    queryValue(realIds),
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
        path = path.replace(`{${name}}`, encodeSegment(params[i]!));
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
