import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf } from '../compliance/support.ts';
import {
  type Client,
  startTestApi,
  type TestApi,
  type TestServer,
  usingPostgres,
} from '../helpers/server.ts';
import {
  addParty,
  businessUnderReview,
  companyParty,
  customerOf,
  type Party,
  personParty,
  representative,
  review,
  submitPerson,
} from './support.ts';

let api: TestApi;
let server: TestServer;
let production: Client;
let operator: Client;

beforeAll(async () => {
  api = await startTestApi();
  ({ server, production, operator } = api);
});
afterAll(() => server.close());

const REJECT = { rejectLabels: ['fraudulent_patterns'] };

/** Sends a party's documents through the API and submits its verification. */
async function submitParty(customerId: string, party: Party) {
  const response = await submitPerson(
    server.production,
    api.tenant.productionKey,
    production,
    customerId,
    party.verification!.id,
    party.id,
  );
  expect(response.statusCode).toBe(200);
  expect(response.json()).toMatchObject({ status: 'UNDER_VERIFICATION', associatedPartyId: party.id });
}

async function approveParty(customerId: string, party: Party) {
  await submitParty(customerId, party);
  const response = await review(operator, party.verification!.id, { status: 'APPROVED' });
  expect(response.statusCode).toBe(200);
}

const statusOf = async (customerId: string) => (await customerOf(production, customerId)).verification.status;

const queueItem = async (verificationId: string) => {
  const queue = (
    await operator.get(`/operator/verifications?projectId=${api.tenant.projectId}&limit=50`)
  ).json();
  return queue.data.find((item: { id: string }) => item.id === verificationId);
};

describe('the approval rule of a BUSINESS customer', () => {
  it('waits in UNDER_VERIFICATION after its own approval until every UBO (counted through parents) and a representative are APPROVED', async () => {
    const customer = await businessUnderReview(server.production, api.tenant.productionKey, production);
    const direct = await addParty(
      production,
      customer.id,
      personParty({ name: 'Direct Owner', ownershipPercentage: 40 }),
    );
    const holding = await addParty(production, customer.id, companyParty({ ownershipPercentage: 60 }));
    // 60% × 50% = 30%: a UBO through the holding
    const indirect = await addParty(
      production,
      customer.id,
      personParty({
        name: 'Indirect Owner',
        role: 'SHAREHOLDER',
        parentId: holding.id,
        ownershipPercentage: 50,
      }),
    );
    // 60% × 40% = 24%: below 25%, not a UBO; never verified, never in the way
    await addParty(
      production,
      customer.id,
      personParty({
        name: 'Minor Owner',
        role: 'SHAREHOLDER',
        parentId: holding.id,
        ownershipPercentage: 40,
      }),
    );
    const rep = await addParty(production, customer.id, representative());

    const own = await review(operator, customer.verification.id, { status: 'APPROVED' });
    expect(own.statusCode).toBe(200);
    expect(own.json().status).toBe('UNDER_VERIFICATION');
    expect(await statusOf(customer.id)).toBe('UNDER_VERIFICATION');
    const waiting = await queueItem(customer.verification.id);
    expect(waiting.reviewApproved).toBe(true);
    expect(waiting.missing).toEqual([
      `UBO Direct Owner (${direct.id}) is NOT_STARTED`,
      `UBO Indirect Owner (${indirect.id}) is NOT_STARTED`,
      'an APPROVED REPRESENTATIVE (none is approved yet)',
    ]);
    // the review of the business shows its ownership tree
    const detail = (await operator.get(`/operator/verifications/${customer.verification.id}`)).json();
    expect(
      detail.ownershipTree.map((node: { name: string; depth: number; ubo: boolean }) => [
        node.name,
        node.depth,
        node.ubo,
      ]),
    ).toEqual([
      ['Direct Owner', 0, true],
      ['Holding Exemplo SA', 0, false],
      ['Indirect Owner', 1, true],
      ['Minor Owner', 1, false],
      ['Rui Costa', 0, false],
    ]);
    // a second approval of the business's own documents changes nothing
    expect((await review(operator, customer.verification.id, { status: 'APPROVED' })).statusCode).toBe(409);

    await approveParty(customer.id, direct);
    await approveParty(customer.id, indirect);
    expect(await statusOf(customer.id)).toBe('UNDER_VERIFICATION');
    expect((await queueItem(customer.verification.id)).missing).toEqual([
      'an APPROVED REPRESENTATIVE (none is approved yet)',
    ]);
    await approveParty(customer.id, rep);
    expect(await statusOf(customer.id)).toBe('APPROVED');
    const approvals = (await eventsOf(server, customer.verification.id)).filter(
      (event) => event.type === 'customer.verification.updated' && event.data.status === 'APPROVED',
    );
    expect(approvals).toHaveLength(1);
  });

  it('with no individual at 25%, a REPRESENTATIVE stands as control person', async () => {
    const customer = await businessUnderReview(server.production, api.tenant.productionKey, production);
    for (let i = 0; i < 5; i++) {
      await addParty(production, customer.id, personParty({ role: 'SHAREHOLDER', ownershipPercentage: 20 }));
    }
    const rep = await addParty(production, customer.id, representative());
    await review(operator, customer.verification.id, { status: 'APPROVED' });
    expect(await statusOf(customer.id)).toBe('UNDER_VERIFICATION');
    await approveParty(customer.id, rep);
    expect(await statusOf(customer.id)).toBe('APPROVED');
  });

  it('is approved when the last party is approved before its own review, by the own review', async () => {
    const customer = await businessUnderReview(server.production, api.tenant.productionKey, production);
    const rep = await addParty(production, customer.id, representative());
    await approveParty(customer.id, rep);
    expect(await statusOf(customer.id)).toBe('UNDER_VERIFICATION');
    const own = await review(operator, customer.verification.id, { status: 'APPROVED' });
    expect(own.json().status).toBe('APPROVED');
  });

  it("a party's FINAL_REJECTION sends the customer's verification to TEMPORARY_REJECTION with a reason naming the party", async () => {
    const customer = await businessUnderReview(server.production, api.tenant.productionKey, production);
    const ubo = await addParty(production, customer.id, personParty({ name: 'Bad Owner' }));
    await addParty(production, customer.id, representative());
    await review(operator, customer.verification.id, { status: 'APPROVED' });
    await submitParty(customer.id, ubo);
    const rejected = await review(operator, ubo.verification!.id, {
      status: 'FINAL_REJECTION',
      statusReason: REJECT,
    });
    expect(rejected.statusCode).toBe(200);
    const verification = (
      await production.get(`/customers/${customer.id}/verifications/${customer.verification.id}`)
    ).json();
    expect(verification.status).toBe('TEMPORARY_REJECTION');
    expect(verification.statusReason.rejectLabels).toEqual(['associated_party_rejected']);
    expect(verification.statusReason.documents[0]).toMatchObject({
      type: 'ASSOCIATED_PARTY',
      status: 'FINAL_REJECTION',
    });
    expect(verification.statusReason.documents[0].comment).toContain(`Bad Owner (${ubo.id})`);
    const partyEvents = await eventsOf(server, ubo.verification!.id);
    expect(partyEvents.map((event) => [event.type, event.data.status])).toEqual([
      ['associated_party.verification.updated', 'UNDER_VERIFICATION'],
      ['associated_party.verification.updated', 'FINAL_REJECTION'],
    ]);
    // the partner replaces the party and submits again: the rejected one no longer counts
    const removed = await production.delete(`/customers/${customer.id}/associated-parties/${ubo.id}`);
    expect(removed.statusCode).toBe(204);
    const again = await production.post(
      `/customers/${customer.id}/verifications/${customer.verification.id}/submit`,
      {},
    );
    expect(again.statusCode).toBe(200);
    expect(again.json().status).toBe('UNDER_VERIFICATION');
  });

  it.runIf(usingPostgres())(
    'two operators approving the last two parties at once approve the customer exactly once, with one event',
    async () => {
      for (let round = 0; round < 4; round++) {
        const customer = await businessUnderReview(server.production, api.tenant.productionKey, production);
        const ubo = await addParty(production, customer.id, personParty());
        const rep = await addParty(production, customer.id, representative());
        await review(operator, customer.verification.id, { status: 'APPROVED' });
        await submitParty(customer.id, ubo);
        await submitParty(customer.id, rep);
        const answers = await Promise.all([
          review(operator, ubo.verification!.id, { status: 'APPROVED' }),
          review(operator, rep.verification!.id, { status: 'APPROVED' }),
        ]);
        expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
        expect(await statusOf(customer.id)).toBe('APPROVED');
        const approvals = (await eventsOf(server, customer.verification.id)).filter(
          (event) => event.data.status === 'APPROVED',
        );
        expect(approvals).toHaveLength(1);
      }
    },
  );
});
