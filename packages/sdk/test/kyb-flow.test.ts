import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDF } from '../../../test/compliance/files.ts';
import { validCnpj, validCpf } from '../../../test/helpers/factories.ts';
import type { Ponte } from '../src/index.ts';
import { PonteApiError } from '../src/index.ts';
import { type SdkServer, STARTUP_TIMEOUT_MS, startSdkServer, until } from './support.ts';

let server: SdkServer;
let ponte: Ponte;

beforeAll(async () => {
  server = await startSdkServer();
  ponte = server.ponte();
}, STARTUP_TIMEOUT_MS);
afterAll(() => server?.close());

const address = {
  line1: 'Rua A, 1',
  city: 'São Paulo',
  state: 'SP',
  postalCode: '01000-000',
  country: 'BRA',
};

describe('business customers through the SDK', () => {
  it('adds, lists, reads and removes associated parties, mints a terms link, uploads and submits documents', async () => {
    const company = await ponte.customers.create({
      type: 'BUSINESS',
      name: 'Exemplo Ltda',
      taxId: validCnpj('1'),
      country: 'BRA',
      email: 'fin@exemplo.example',
    });
    const ubo = await ponte.customers.associatedParties.create(company.id, {
      type: 'INDIVIDUAL',
      role: 'UBO',
      name: 'Ana Lima',
      taxId: validCpf('5'),
      email: 'ana@exemplo.example',
      address,
      ownershipPercentage: 60,
    });
    expect(ubo.verification?.status).toBe('NOT_STARTED');
    expect(await ponte.customers.associatedParties.retrieve(company.id, ubo.id)).toMatchObject({
      id: ubo.id,
    });
    const rep = await ponte.customers.associatedParties.create(company.id, {
      type: 'INDIVIDUAL',
      role: 'REPRESENTATIVE',
      name: 'Rui Costa',
      taxId: validCpf('6'),
      email: 'rui@exemplo.example',
      address,
    });
    const page = await ponte.customers.associatedParties.list(company.id);
    expect(page.data.map((party) => party.id)).toEqual([rep.id, ubo.id]);
    await ponte.customers.associatedParties.del(company.id, rep.id);
    const refused = await ponte.customers.associatedParties
      .create(company.id, {
        type: 'INDIVIDUAL',
        role: 'SHAREHOLDER',
        name: 'Too Much',
        taxId: validCpf('5'),
        email: 'x@exemplo.example',
        address,
        ownershipPercentage: 50,
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PonteApiError);
    expect((refused as PonteApiError).code).toBe('ownership_exceeded');

    const terms = await ponte.customers.acceptTermsLink(company.id, {
      redirectUrl: 'https://partner.example/ok',
    });
    expect(terms.url).toContain('/tos/');
    const termsPage = new URL(new URL(terms.url).pathname, server.url);
    const accepted = await fetch(termsPage, { method: 'POST', redirect: 'manual' });
    expect(accepted.status).toBe(303);

    const document = await ponte.documents.upload(company.id, {
      file: PDF,
      fileName: 'contrato-social.pdf',
      type: 'ARTICLES_OF_INCORPORATION',
    });
    expect(document).toMatchObject({ type: 'ARTICLES_OF_INCORPORATION', fileName: 'contrato-social.pdf' });
    const submitted = await ponte.verifications.submit(company.id, company.verification.id);
    expect(submitted.status).toBe('UNDER_VERIFICATION');
    const read = await until(
      () => ponte.customers.retrieve(company.id),
      (customer) => customer.tosAcceptedAt !== null,
    );
    expect(read.requirements).toContainEqual({ name: 'COMPANY_DOCUMENT', status: 'SENT' });
  });
});
