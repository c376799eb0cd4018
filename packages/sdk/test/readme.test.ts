/**
 * The README documents the whole client: every method of every resource (nested ones such as
 * `customers.associatedParties` too), read from the client itself so that a new method cannot go
 * unmentioned.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ponte } from '../src/index.ts';
import { Resource } from '../src/resources/base.ts';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** `customers.create`, `customers.associatedParties.list`, … for every method the client offers. */
function clientMethods(): string[] {
  const ponte = new Ponte({ apiKey: 'sk_sandbox_readme', baseUrl: 'http://127.0.0.1:1' });
  const out: string[] = [];
  const visit = (object: object, prefix: string) => {
    const prototype = Object.getPrototypeOf(object);
    for (const name of Object.getOwnPropertyNames(prototype)) {
      if (name !== 'constructor' && typeof prototype[name] === 'function') out.push(`${prefix}.${name}`);
    }
    for (const [name, value] of Object.entries(object)) {
      if (value instanceof Resource) visit(value, `${prefix}.${name}`);
    }
  };
  for (const [name, value] of Object.entries(ponte)) {
    if (value && typeof value === 'object') visit(value, name);
  }
  return out.sort();
}

describe('the README', () => {
  it('shows every method of every resource of the client in its Resources reference', () => {
    const methods = clientMethods();
    expect(methods).toEqual(
      expect.arrayContaining([
        'customers.associatedParties.create',
        'customers.acceptTermsLink',
        'webhooks.verify',
      ]),
    );
    const reference = README.slice(README.indexOf('## Resources'));
    const missing = methods.filter((method) => !reference.includes(`ponte.${method}(`));
    expect(missing).toEqual([]);
  });
});
