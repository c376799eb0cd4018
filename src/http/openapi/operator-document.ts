/**
 * The operator API's own OpenAPI document, generated from the operator routes' schemas (served at
 * `/operator/openapi.json`, with its reference at `/operator/docs`): every operation named, grouped by
 * what it acts on, authenticated with an operator token, and its problem answers as
 * application/problem+json.
 */
import { PROBLEM_CONTENT_TYPE } from '../problem.ts';

type Json = Record<string, unknown>;
type Operation = { operationId?: string; tags?: string[]; responses?: Record<string, Json> };

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const VERBS: Record<string, string> = {
  get: 'get',
  put: 'put',
  post: 'post',
  delete: 'delete',
  patch: 'patch',
};

/** "GET /operator/projects/{id}/api-keys" → "getProjectsIdApiKeys": a stable name where none is given. */
function derivedId(method: string, path: string): string {
  const words = path
    .replace(/^\/operator\//, '')
    .split(/[/{}-]+/)
    .filter(Boolean);
  return VERBS[method] + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/** The group an operation belongs to: the first part of its path after /operator ("projects", "screening"). */
const groupOf = (path: string) => path.split('/')[2] ?? 'operator';

export function finishOperatorDocument<T extends object>(document: T): T {
  const doc = document as Json & { paths?: Record<string, Record<string, Operation>>; components?: Json };
  const groups = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      operation.operationId ??= derivedId(method, path);
      const group = groupOf(path);
      operation.tags = [group];
      groups.add(group);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (Number(status) < 400) continue;
        operation.responses![status] = {
          description: response.description ?? 'Problem',
          content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } },
        };
      }
    }
  }
  doc.tags = [...groups].sort().map((name) => ({ name }));
  return document;
}
