/**
 * The request log redacts a response on its text (`redactBodyText`) and a request on its parsed body
 * (`redactParsedBody`): both must keep the same thing of the same document, whatever the text's layout and
 * wherever a redacted field sits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PERSONAL_FIELDS, SECRET_FIELDS } from '../../src/http/logger.ts';
import { FREE_TEXT_FIELDS, redactBodyText, redactParsedBody } from '../../src/http/redact-body.ts';

const KEYS = [
  ...SECRET_FIELDS,
  ...PERSONAL_FIELDS,
  'id',
  'status',
  'note',
  'data',
  'a,b',
  'x"y',
  'name2',
  'requirements',
  ...FREE_TEXT_FIELDS,
  'passportNumber',
  'rg',
];

/**
 * JSON documents whose keys are often redacted or free-text fields, with strings full of JSON's own
 * punctuation and of the personal data free text may hold (pieces of e-mails, tax ids, phones, passports).
 */
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom('a', 'Z', '{', '}', '[', ']', ',', ':', '"', '\\', ' ', 'é', '🌎', '\n', 'null'),
    fc.constantFrom(
      '@',
      'maria@x.example',
      '7',
      '529 982 247 25',
      '+55 11 99999-0000',
      'passport ',
      'FZ123456',
    ),
  ),
});
const { document } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    tie('object'),
    fc.array(tie('value'), { maxLength: 4 }),
  ),
  object: fc.oneof(
    { depthSize: 'small' },
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 6 }),
    // an array of objects under a key whose elements keep a field redacted elsewhere (a requirement's name)
    fc
      .tuple(
        fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 3 }),
        fc.array(fc.oneof(tie('object'), tie('value')), { maxLength: 3 }),
      )
      .map(([object, requirements]) => ({ ...object, requirements })),
  ),
  document: fc.oneof(tie('object'), fc.array(tie('value'), { maxLength: 4 })),
}));

describe('request log bodies', () => {
  it('redacts a response text as it redacts the same body parsed, compact or indented', () => {
    fc.assert(
      fc.property(document, (body) => {
        const expected = JSON.parse(redactParsedBody(body)!);
        expect(JSON.parse(redactBodyText(JSON.stringify(body))!)).toEqual(expected);
        expect(JSON.parse(redactBodyText(JSON.stringify(body, null, 2))!)).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('replaces a redacted field whatever its value: a string, a number, an object, an array; null stays null', () => {
    const sent = JSON.stringify({
      name: 'Maria "M" \\ Silva',
      phone: 5511999990000,
      address: { street: 'Rua A, 1', city: 'São Paulo' },
      taxId: null,
      identifier: ['x', { y: '}' }],
      id: 'kept',
    });
    expect(JSON.parse(redactBodyText(sent)!)).toEqual({
      name: '[redacted]',
      phone: '[redacted]',
      address: '[redacted]',
      taxId: null,
      identifier: '[redacted]',
      id: 'kept',
    });
  });

  it('scrubs tax ids inside strings and leaves numbers of the same shape as numbers, in any layout', () => {
    const body = { note: 'cpf 529.982.247-25, cnpj 11222333000181', amounts: [44078.498896708, 52998224725] };
    for (const text of [JSON.stringify(body), JSON.stringify(body, null, 2)]) {
      const stored = JSON.parse(redactBodyText(text)!);
      expect(stored.note).toBe('cpf [redacted-tax-id], cnpj [redacted-tax-id]');
      expect(stored.amounts).toEqual([44078.498896708, 52998224725]);
    }
  });

  it("keeps a requirement's name and redacts every other name: a customer's, a party's, a beneficiary's", () => {
    const customer = {
      id: 'c1',
      name: 'Maria Silva',
      requirements: [
        { name: 'TERMS_OF_SERVICE', status: 'NOT_SENT' },
        { name: 'SELFIE', status: 'SENT', associatedPartyId: 'p1' },
        { name: { first: 'Maria' }, status: 'SENT' },
      ],
      parties: [{ name: 'João Sócio', requirements: 'none' }],
      travelRule: { beneficiary: { name: 'Ana Beneficiária', requirements: [[{ name: 'nested' }]] } },
      metadata: { requirements: { name: 'Not a requirement' } },
    };
    const expected = {
      id: 'c1',
      name: '[redacted]',
      requirements: [
        { name: 'TERMS_OF_SERVICE', status: 'NOT_SENT' },
        { name: 'SELFIE', status: 'SENT', associatedPartyId: 'p1' },
        { name: { first: 'Maria' }, status: 'SENT' },
      ],
      parties: [{ name: '[redacted]', requirements: 'none' }],
      travelRule: { beneficiary: { name: '[redacted]', requirements: [[{ name: '[redacted]' }]] } },
      metadata: { requirements: { name: '[redacted]' } },
    };
    expect(JSON.parse(redactParsedBody(customer)!)).toEqual(expected);
    expect(JSON.parse(redactBodyText(JSON.stringify(customer))!)).toEqual(expected);
    expect(JSON.parse(redactBodyText(JSON.stringify({ data: [customer, customer] }, null, 2))!)).toEqual({
      data: [expected, expected],
    });
  });

  it('keeps a free-text key named __proto__ as a key of its own, written the same both ways', () => {
    const sent = '{"metadata":{"__proto__":{"email":"m@x.example"},"note":"call 11 99999-0000"}}';
    const expected = { metadata: { ['__proto__']: { email: '[redacted]' }, note: 'call [redacted-phone]' } };
    const parsedWay = JSON.parse(redactParsedBody(JSON.parse(sent))!);
    const textWay = JSON.parse(redactBodyText(sent)!);
    for (const stored of [parsedWay, textWay]) {
      expect(Object.keys(stored.metadata)).toEqual(['__proto__', 'note']);
      expect(JSON.stringify(stored)).toBe(JSON.stringify(expected));
    }
  });
});
