/**
 * Efí's published shapes, as the official Node SDK (`sdk-node-apis-efi`, MIT) declares them in zod: the
 * body of every request Ponte sends to Efí, the query of its listings, and the body of every 2xx answer
 * the simulator gives, are checked against that SDK's schemas, not against our own reading. Each route
 * also names the OAuth2 scope Efí requires for it (each endpoint's page under dev.efipay.com.br/docs/api-pix/
 * says "Requer autorização para o escopo: …"; Efí's PHP SDK lists the same per route), so a token
 * without it is refused.
 */
import {
  PixConfigWebhookBodySchema,
  PixConfigWebhookResponseSchema,
  PixCreateChargeBodySchema,
  PixCreateChargeResponseSchema,
  PixDetailChargeResponseSchema,
  PixDetailDevolutionResponseSchema,
  PixDetailReceivedResponseSchema,
  PixDetailWebhookResponseSchema,
  PixDevolutionBodySchema,
  PixDevolutionResponseSchema,
  PixListReceivedParamsSchema,
  PixListReceivedResponseSchema,
  PixSendBodySchema,
  PixSendDetailIdResponseSchema,
  PixSendListParamsSchema,
  PixSendListResponseSchema,
  PixSendResponseSchema,
  PixUpdateChargeBodySchema,
  PixUpdateChargeResponseSchema,
} from 'sdk-node-apis-efi';

/** What the zod schemas of the SDK offer (the SDK's own zod; no second copy is loaded here). */
type Schema = {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: Issue[] } };
};
type Issue = { path: PropertyKey[]; message: string };

/** Every scope Ponte's rail needs, as the README lists them. */
export const EFI_SCOPES = [
  'cob.write',
  'cob.read',
  'pix.read',
  'pix.write',
  'webhook.write',
  'webhook.read',
  'pix.send',
  'gn.pix.send.read',
] as const;

export type EfiRoute = {
  name: string;
  method: string;
  path: RegExp;
  scope: (typeof EFI_SCOPES)[number];
  body?: Schema;
  query?: Schema;
  answer?: Schema;
};

export const EFI_ROUTES: EfiRoute[] = [
  {
    name: 'PUT /v2/cob/{txid}',
    method: 'PUT',
    path: /^\/v2\/cob\/[^/]+$/,
    scope: 'cob.write',
    body: PixCreateChargeBodySchema,
    answer: PixCreateChargeResponseSchema,
  },
  {
    name: 'PATCH /v2/cob/{txid}',
    method: 'PATCH',
    path: /^\/v2\/cob\/[^/]+$/,
    scope: 'cob.write',
    body: PixUpdateChargeBodySchema,
    answer: PixUpdateChargeResponseSchema,
  },
  {
    name: 'GET /v2/cob/{txid}',
    method: 'GET',
    path: /^\/v2\/cob\/[^/]+$/,
    scope: 'cob.read',
    answer: PixDetailChargeResponseSchema,
  },
  {
    name: 'PUT /v2/pix/{e2eId}/devolucao/{id}',
    method: 'PUT',
    path: /^\/v2\/pix\/[^/]+\/devolucao\/[^/]+$/,
    scope: 'pix.write',
    body: PixDevolutionBodySchema,
    answer: PixDevolutionResponseSchema,
  },
  {
    name: 'GET /v2/pix/{e2eId}/devolucao/{id}',
    method: 'GET',
    path: /^\/v2\/pix\/[^/]+\/devolucao\/[^/]+$/,
    scope: 'pix.read',
    answer: PixDetailDevolutionResponseSchema,
  },
  {
    name: 'GET /v2/pix/{e2eId}',
    method: 'GET',
    path: /^\/v2\/pix\/[^/]+$/,
    scope: 'pix.read',
    answer: PixDetailReceivedResponseSchema,
  },
  {
    name: 'GET /v2/pix',
    method: 'GET',
    path: /^\/v2\/pix$/,
    scope: 'pix.read',
    query: PixListReceivedParamsSchema,
    answer: PixListReceivedResponseSchema,
  },
  {
    name: 'PUT /v2/webhook/{chave}',
    method: 'PUT',
    path: /^\/v2\/webhook\/[^/]+$/,
    scope: 'webhook.write',
    body: PixConfigWebhookBodySchema,
    answer: PixConfigWebhookResponseSchema,
  },
  {
    name: 'GET /v2/webhook/{chave}',
    method: 'GET',
    path: /^\/v2\/webhook\/[^/]+$/,
    scope: 'webhook.read',
    answer: PixDetailWebhookResponseSchema,
  },
  {
    name: 'PUT /v3/gn/pix/{idEnvio}',
    method: 'PUT',
    path: /^\/v3\/gn\/pix\/[^/]+$/,
    scope: 'pix.send',
    body: PixSendBodySchema,
    answer: PixSendResponseSchema,
  },
  {
    name: 'GET /v2/gn/pix/enviados/id-envio/{idEnvio}',
    method: 'GET',
    path: /^\/v2\/gn\/pix\/enviados\/id-envio\/[^/]+$/,
    scope: 'gn.pix.send.read',
    answer: PixSendDetailIdResponseSchema,
  },
  {
    name: 'GET /v2/gn/pix/enviados',
    method: 'GET',
    path: /^\/v2\/gn\/pix\/enviados$/,
    scope: 'gn.pix.send.read',
    query: PixSendListParamsSchema,
    answer: PixSendListResponseSchema,
  },
];

export function efiRoute(method: string, path: string): EfiRoute | undefined {
  return EFI_ROUTES.find((route) => route.method === method && route.path.test(path));
}

function issues(what: string, schema: Schema, value: unknown): string[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map(
    (issue) =>
      `${what}${issue.path.length ? ` at ${issue.path.map(String).join('.')}` : ''}: ${issue.message}`,
  );
}

/** A query's values as the SDK types them: numbers and booleans from their text. */
function typedQuery(query: URLSearchParams): Record<string, unknown> {
  const typed: Record<string, unknown> = {};
  for (const [key, value] of query) {
    typed[key] = /^\d+$/.test(value)
      ? Number(value)
      : value === 'true'
        ? true
        : value === 'false'
          ? false
          : value;
  }
  return typed;
}

/** The violations of a request against the SDK's schemas of its route. */
export function checkEfiRequest(route: EfiRoute, query: URLSearchParams, body: unknown): string[] {
  const found: string[] = [];
  if (route.body) found.push(...issues(`${route.name}: body`, route.body, body));
  else if (body !== undefined) found.push(`${route.name}: takes no body`);
  if (route.query) found.push(...issues(`${route.name}: query`, route.query, typedQuery(query)));
  return found;
}

/** The violations of the simulator's own 2xx answer against the SDK's response schema of its route. */
export function checkEfiAnswer(route: EfiRoute, status: number, body: unknown): string[] {
  if (status < 200 || status >= 300 || !route.answer) return [];
  return issues(`simulator answer to ${route.name}`, route.answer, body);
}
