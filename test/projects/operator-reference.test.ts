/**
 * What a newcomer to the operator API meets: the first run names the Default project and prints a link to
 * the operator API's reference, which shows the operator API's own generated document (no public route in
 * it); projects are listed, paginated like every list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRunBanner } from '../../src/modules/projects/first-run-banner.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
const operator = () => ({ authorization: `Bearer ${server.operatorToken}` });

beforeAll(async () => {
  server = await startTestServer({ workers: false, ownDatabase: true });
});
afterAll(() => server.close());

describe('operator API reference and project list', () => {
  it("the first run's banner names the Default project's id and links the operator reference, which shows the document", async () => {
    const operatorUrl = new URL('http://127.0.0.1:8090');
    const projectId = '01936f3e-1c2a-7b3d-8e4f-5a6b7c8d9e0f';
    const banner = firstRunBanner(
      { projectId, sandboxKey: 'sk_sandbox_x', operatorToken: 'op_x', extra: undefined },
      new URL('http://127.0.0.1:8081'),
      operatorUrl,
    ).join('\n');
    expect(banner).toMatch(new RegExp(`Default project:\\s+${projectId}`));
    const link = /Operator API reference:\s+(\S+)/.exec(banner)?.[1];
    expect(link).toBe('http://127.0.0.1:8090/operator/docs');
    expect(banner).toContain(`POST http://127.0.0.1:8090/operator/projects/${projectId}/api-keys`);

    // what the link names answers a page (no token needed), and so does the bare address once printed
    let docs = await server.operator.inject({ method: 'GET', url: new URL(link!).pathname });
    for (let hops = 0; hops < 3 && docs.statusCode >= 300 && docs.statusCode < 400; hops++)
      docs = await server.operator.inject({ method: 'GET', url: String(docs.headers.location) });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
    expect(docs.body).toContain('/operator/openapi.json');
    const bare = await server.operator.inject({ method: 'GET', url: '/operator' });
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe('/operator/docs');
  });

  it('serves the operator API document: operator routes only, each named, with the operator token scheme', async () => {
    const response = await server.operator.inject({ method: 'GET', url: '/operator/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('Ponte operator API');
    const paths = Object.keys(document.paths);
    expect(paths).toContain('/operator/projects');
    expect(paths).toContain('/operator/projects/{id}/api-keys');
    expect(document.paths['/operator/projects'].get.operationId).toBe('listProjects');
    expect(document.paths['/operator/projects/{id}/api-keys'].post.security).toEqual([{ operatorAuth: [] }]);
    expect(paths.every((path) => path.startsWith('/operator/'))).toBe(true);
    expect(document.components.securitySchemes.operatorAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item as Record<string, { operationId: string }>).map(
        (operation) => operation.operationId,
      ),
    );
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const refused = document.paths['/operator/projects'].post.responses['401'];
    expect(Object.keys(refused.content)).toEqual(['application/problem+json']);
  });

  it('lists projects newest first, paginated like every list; refuses without a token', async () => {
    const names = ['Lista Um', 'Lista Dois', 'Lista Três'];
    for (const name of names) {
      const created = await server.operator.inject({
        method: 'POST',
        url: '/operator/projects',
        payload: { name },
        headers: operator(),
      });
      expect(created.statusCode).toBe(201);
    }
    const first = await server.operator.inject({
      method: 'GET',
      url: '/operator/projects?limit=2',
      headers: operator(),
    });
    expect(first.statusCode).toBe(200);
    const page = first.json();
    expect(page.data.map((project: { name: string }) => project.name)).toEqual(['Lista Três', 'Lista Dois']);
    expect(page.pagination).toMatchObject({ size: 2, page: 1, hasNextPage: true, nextCursor: '2' });
    expect(page.pagination.total).toBeGreaterThanOrEqual(3);
    const second = await server.operator.inject({
      method: 'GET',
      url: `/operator/projects?limit=2&cursor=${page.pagination.nextCursor}`,
      headers: operator(),
    });
    expect(second.json().data[0].name).toBe('Lista Um');
    expect(
      (
        await server.operator.inject({
          method: 'GET',
          url: '/operator/projects?limit=0',
          headers: operator(),
        })
      ).statusCode,
    ).toBe(400);
    expect((await server.operator.inject({ method: 'GET', url: '/operator/projects' })).statusCode).toBe(401);
  });
});
