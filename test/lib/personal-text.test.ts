/**
 * Personal data written in free text is found whatever its spelling (an e-mail; a CPF or CNPJ in any
 * spacing; a phone number, national or international; a passport number after a passport word or in a
 * field named for an identity document), and the rest of the text is kept as written.
 */
import { describe, expect, it } from 'vitest';
import { mayHoldPersonalText, scrubPersonalText } from '../../src/lib/personal-text.ts';

describe('scrubPersonalText', () => {
  it.each([
    ['contato: maria.silva+ponte@exemplo.com.br', 'contato: [redacted-email]'],
    ['cpf 529 982 247 25 e cnpj 11 222 333 0001 81', 'cpf [redacted-tax-id] e cnpj [redacted-tax-id]'],
    ['CPF: 529 . 982 . 247 - 25', 'CPF: [redacted-tax-id]'],
    ['cnpj 12.ABC.345/01DE-35', 'cnpj [redacted-tax-id]'],
    ['ligar 11 99999-0000 ou (21) 3333-4444', 'ligar [redacted-phone] ou [redacted-phone]'],
    ['whatsapp +55 (11) 98765-4321', 'whatsapp [redacted-phone]'],
    ['tel +44 20 7946 0958', 'tel [redacted-phone]'],
    ['card 4111 1111 1111 1111', 'card [redacted-number]'],
    ['Passport no. FZ123456, valid until 2031', 'Passport no. [redacted-document], valid until 2031'],
    ['passaporte nº FZ123456', 'passaporte nº [redacted-document]'],
    ['pasaporte: N12345678', 'pasaporte: [redacted-document]'],
  ])('replaces what %j holds', (text, expected) => {
    expect(scrubPersonalText(text)).toBe(expected);
  });

  it('replaces a field named for an identity document whole when it has a digit', () => {
    expect(scrubPersonalText('FZ123456', 'passportNumber')).toBe('[redacted-document]');
    expect(scrubPersonalText('12.345.678-9', 'rg')).toBe('[redacted-document]');
    expect(scrubPersonalText('MG 12 345 678', 'documentId')).toBe('[redacted-document]');
    expect(scrubPersonalText('PASSPORT', 'documentType')).toBe('PASSPORT');
  });

  it('keeps ids, dates, amounts, short references and prose as written', () => {
    for (const text of [
      'order 2026-11-28 12:30, ref 8f1e2c3a-4b5d-11ee-9c1e-000000000001',
      'amount 1234567.89 BRL',
      'order-8841 (2026-11-28)',
      'São Paulo 🌎 — “Zona Leste”',
      'a passport office visit',
      'TERMS_OF_SERVICE',
    ]) {
      expect(scrubPersonalText(text)).toBe(text);
    }
  });

  it('says a text may hold personal data whenever the scrub would change it', () => {
    for (const text of [
      'x@y.example',
      '529 982 247 25',
      '11 99999-0000',
      '12.ABC.345/01DE-35',
      'passport FZ123456',
      '{"rg":"AB12C"}',
    ]) {
      expect(mayHoldPersonalText(text)).toBe(true);
    }
    expect(mayHoldPersonalText('{"internalRef":"ref-1","segment":"retail"}')).toBe(false);
  });
});
