import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, linkPath, manualClock, submitDocuments } from '../compliance/support.ts';
import { approvedCustomer, createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, startTestApi, type TestApi, type TestServer } from '../helpers/server.ts';
import { customerOf } from './support.ts';

let api: TestApi;
let server: TestServer;
let production: Client;
let sandbox: Client;
const clock = manualClock(Date.now());

beforeAll(async () => {
  api = await startTestApi({ clock });
  ({ server, production, sandbox } = api);
});
afterAll(() => server.close());

const open = (url: string, app = server.production) =>
  app.inject({ method: 'GET', url: new URL(url).pathname });
const accept = (url: string, app = server.production) =>
  app.inject({ method: 'POST', url: new URL(url).pathname });
const stateOf = (html: string) => /<main data-status="([A-Z_]+)"/.exec(html)?.[1];

describe('POST /customers/{id}/tos', () => {
  it('answers a single-use link valid 24 hours; accepting it sets tosAcceptedAt, the requirement and customer.updated', async () => {
    const customer = await createCustomer(production);
    const now = clock.advance();
    const response = await production.post(`/customers/${customer.id}/tos`, {});
    expect(response.statusCode).toBe(201);
    const link = response.json();
    expect(link.url).toMatch(/^http:\/\/localhost:8080\/tos\/[0-9A-Za-z]{43}$/);
    expect(link.expiresAt).toBe(new Date(Date.parse(now) + 24 * 3600_000).toISOString());
    const page = await open(link.url);
    expect(page.statusCode).toBe(200);
    expect(stateOf(page.body)).toBe('OPEN');
    expect(page.body).toContain('Terms of service');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");

    const at = clock.advance();
    const accepted = await accept(link.url);
    expect(accepted.statusCode).toBe(200);
    expect(stateOf(accepted.body)).toBe('ACCEPTED');
    const after = await customerOf(production, customer.id);
    expect(after.tosAcceptedAt).toBe(at);
    expect(after.requirements[0]).toEqual({ name: 'TERMS_OF_SERVICE', status: 'APPROVED' });
    const updates = (await eventsOf(server, customer.id)).filter(
      (event) => event.type === 'customer.updated',
    );
    expect(updates).toHaveLength(1);
    expect(updates[0]!.data).toMatchObject({ id: customer.id, tosAcceptedAt: at });

    // single use: the second acceptance is refused and changes nothing
    clock.advance();
    const again = await accept(link.url);
    expect(again.statusCode).toBe(410);
    expect(stateOf(again.body)).toBe('USED');
    expect((await customerOf(production, customer.id)).tosAcceptedAt).toBe(at);
  });

  it('expires after 24 hours', async () => {
    const customer = await createCustomer(production);
    const link = (await production.post(`/customers/${customer.id}/tos`, {})).json();
    clock.advance(24 * 3600_000);
    expect(stateOf((await open(link.url)).body)).toBe('EXPIRED');
    const late = await accept(link.url);
    expect(late.statusCode).toBe(410);
    expect((await customerOf(production, customer.id)).tosAcceptedAt).toBeNull();
  });

  it('sends the customer to redirectUrl after acceptance, and refuses a redirect that is not http(s)', async () => {
    const customer = await createCustomer(production);
    const link = (
      await production.post(`/customers/${customer.id}/tos`, { redirectUrl: 'https://partner.example/done' })
    ).json();
    const accepted = await accept(link.url);
    expect(accepted.statusCode).toBe(303);
    expect(accepted.headers.location).toBe('https://partner.example/done');
    const bad = await production.post(`/customers/${customer.id}/tos`, {
      redirectUrl: 'javascript:alert(1)',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([
      { pointer: '/body/redirectUrl', message: 'must be an http or https URL' },
    ]);
  });

  it("answers 404 for another tenant's customer, a forged token, and a link of the other environment", async () => {
    const customer = await createCustomer(production);
    const other = client(server.production, (await server.newTenant()).productionKey);
    expect((await other.post(`/customers/${customer.id}/tos`, {})).statusCode).toBe(404);
    const forged = await server.production.inject({ method: 'GET', url: `/tos/${'a'.repeat(43)}` });
    expect(forged.statusCode).toBe(404);
    expect(stateOf(forged.body)).toBe('INVALID_LINK');
    const link = (await production.post(`/customers/${customer.id}/tos`, {})).json();
    expect((await accept(link.url, server.sandbox)).statusCode).toBe(404);
    expect((await customerOf(production, customer.id)).tosAcceptedAt).toBeNull();
  });

  it('works in the sandbox all the same, where the simulation accepts the terms of the customers it decides', async () => {
    const approved = await approvedCustomer(sandbox);
    const read = await customerOf(sandbox, approved.id);
    expect(read.tosAcceptedAt).not.toBeNull();
    const idle = await createCustomer(sandbox, individualBody({ taxId: validCpf('1') }));
    const link = (await sandbox.post(`/customers/${idle.id}/tos`, {})).json();
    expect(link.url).toMatch(/^http:\/\/localhost:8081\/tos\//);
    expect((await accept(link.url, server.sandbox)).statusCode).toBe(200);
    expect((await customerOf(sandbox, idle.id)).tosAcceptedAt).not.toBeNull();
  });
});

describe('the hosted verification page and the terms', () => {
  it('offers the terms first to a customer who has not accepted them; submitting accepts them', async () => {
    const customer = await createCustomer(production);
    const page = await server.production.inject({ method: 'GET', url: linkPath(customer.verification.link) });
    const terms = page.body.indexOf('id="terms"');
    expect(terms).toBeGreaterThan(0);
    expect(terms).toBeLessThan(page.body.indexOf('<form'));
    expect(page.body).toContain('By submitting your documents you accept these terms of service');
    const at = clock.advance();
    expect((await submitDocuments(server.production, customer.verification.link)).statusCode).toBe(303);
    const after = await customerOf(production, customer.id);
    expect(after.tosAcceptedAt).toBe(at);
    expect(after.verification.status).toBe('UNDER_VERIFICATION');
  });

  it('does not show the terms once they are accepted', async () => {
    const customer = await createCustomer(production);
    const link = (await production.post(`/customers/${customer.id}/tos`, {})).json();
    await accept(link.url);
    const page = await server.production.inject({ method: 'GET', url: linkPath(customer.verification.link) });
    expect(page.body).not.toContain('id="terms"');
  });
});
