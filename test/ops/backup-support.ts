/** What the backup tests share: the sandbox API of a new project on a running server. */
import type { PonteProcess } from './ponte-process.ts';

/** The sandbox API of a new project on the running server. */
export async function sandboxClient(server: PonteProcess) {
  const operator = { authorization: `Bearer ${server.operatorToken}`, 'content-type': 'application/json' };
  const project = (await (
    await fetch(`${server.urls.operator}/operator/projects`, {
      method: 'POST',
      headers: operator,
      body: JSON.stringify({ name: 'Backup under load' }),
    })
  ).json()) as { id: string };
  const { key } = (await (
    await fetch(`${server.urls.operator}/operator/projects/${project.id}/api-keys`, {
      method: 'POST',
      headers: operator,
      body: JSON.stringify({ environment: 'sandbox' }),
    })
  ).json()) as { key: string };
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.urls.sandbox}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? (method === 'POST' ? '{}' : undefined) : JSON.stringify(body),
    });
    const json = (await response.json()) as { id: string; [key: string]: unknown };
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  // the key itself, for tests that look for it
  return Object.assign(call, { key });
}
