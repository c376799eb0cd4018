/** Test data: valid Brazilian tax ids (with a chosen last digit when needed) and request bodies. */
import { cnpj, cpf } from 'cpf-cnpj-validator';
import type { Client } from './server.ts';
import { eventually } from './server.ts';

/** A valid, formatted CPF; with `lastDigit`, one ending in that digit (drives sandbox outcomes). */
export function validCpf(lastDigit?: string): string {
  for (;;) {
    const value = cpf.format(cpf.generate());
    if (lastDigit === undefined || value.endsWith(lastDigit)) return value;
  }
}

export function validCnpj(lastDigit?: string): string {
  for (;;) {
    const value = cnpj.format(cnpj.generate());
    if (lastDigit === undefined || value.endsWith(lastDigit)) return value;
  }
}

export function individualBody(overrides: Record<string, unknown> = {}) {
  return {
    type: 'INDIVIDUAL',
    name: 'Ana Souza',
    taxId: validCpf('5'),
    country: 'BRA',
    email: 'ana@example.com',
    birthDate: '1990-04-12',
    ...overrides,
  };
}

export function businessBody(overrides: Record<string, unknown> = {}) {
  return {
    type: 'BUSINESS',
    name: 'Loja Exemplo Ltda',
    taxId: validCnpj('5'),
    country: 'BRA',
    email: 'financeiro@loja.example',
    incorporationDate: '2019-05-14',
    ...overrides,
  };
}

export type CustomerView = {
  id: string;
  type: string;
  taxId: string;
  verification: { id: string; status: string; link: string };
  [key: string]: unknown;
};

/** Creates a customer and returns its answer; asserts 201. */
export async function createCustomer(api: Client, body: Record<string, unknown> = individualBody()) {
  const response = await api.post('/customers', body);
  if (response.statusCode !== 201)
    throw new Error(`create customer: ${response.statusCode} ${response.body}`);
  return response.json() as CustomerView;
}

/** A representative the sandbox approves (its CPF ends in 5), for a business to reach APPROVED. */
export function representativeBody(overrides: Record<string, unknown> = {}) {
  return {
    type: 'INDIVIDUAL',
    role: 'REPRESENTATIVE',
    name: 'Rui Costa',
    taxId: validCpf('5'),
    birthDate: '1980-01-02',
    email: 'rui@example.com',
    address: {
      line1: 'Av. Paulista, 1000',
      city: 'São Paulo',
      state: 'SP',
      postalCode: '01310-100',
      country: 'BRA',
    },
    ...overrides,
  };
}

/**
 * A sandbox customer that the sandbox simulation has APPROVED (taxId not ending in 1, 2 or 3); a business
 * is given a representative the sandbox approves, without which it waits as in production.
 */
export async function approvedCustomer(sandbox: Client, body: Record<string, unknown> = individualBody()) {
  const customer = await createCustomer(sandbox, body);
  if (customer.type === 'BUSINESS') {
    const added = await sandbox.post(`/customers/${customer.id}/associated-parties`, representativeBody());
    if (added.statusCode !== 201) throw new Error(`add representative: ${added.statusCode} ${added.body}`);
  }
  await eventually(
    () => sandbox.get(`/customers/${customer.id}`).then((r) => r.json()),
    (c) => c.verification.status === 'APPROVED',
  );
  return customer;
}
