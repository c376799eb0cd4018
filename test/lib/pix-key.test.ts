import { describe, expect, it } from 'vitest';
import {
  normalizePixEmail,
  normalizePixEvp,
  normalizePixKey,
  normalizePixPhone,
  PIX_KEY_EXPECTATION,
  PIX_KEY_TYPES,
} from '../../src/lib/pix-key.ts';

describe('CPF keys', () => {
  it('accepts a valid CPF with or without punctuation and answers it punctuated', () => {
    expect(normalizePixKey('CPF', '52998224725')).toBe('529.982.247-25');
    expect(normalizePixKey('CPF', '529.982.247-25')).toBe('529.982.247-25');
    expect(normalizePixKey('CPF', ' 529 982 247 25 ')).toBe('529.982.247-25');
  });

  it('refuses wrong check digits, wrong lengths, repeated digits and letters', () => {
    for (const value of ['529.982.247-26', '5299822472', '529982247250', '111.111.111-11', '52998224A25', ''])
      expect(normalizePixKey('CPF', value), value).toBeNull();
  });
});

describe('CNPJ keys', () => {
  it('accepts a valid numeric CNPJ and answers it punctuated', () => {
    expect(normalizePixKey('CNPJ', '11222333000181')).toBe('11.222.333/0001-81');
    expect(normalizePixKey('CNPJ', '11.222.333/0001-81')).toBe('11.222.333/0001-81');
  });

  it('accepts the alphanumeric CNPJ in any case and answers it in upper case', () => {
    expect(normalizePixKey('CNPJ', '12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(normalizePixKey('CNPJ', '12.abc.345/01de-35')).toBe('12.ABC.345/01DE-35');
  });

  it('refuses wrong check digits, wrong lengths, a CPF and letters in the check digits', () => {
    for (const value of [
      '11.222.333/0001-82',
      '1122233300018',
      '52998224725',
      '12ABC34501DE3A',
      '00000000000000',
    ])
      expect(normalizePixKey('CNPJ', value), value).toBeNull();
  });
});

describe('EMAIL keys', () => {
  it('answers a valid address in lower case, trimmed', () => {
    expect(normalizePixEmail(' Ana.Souza+pix@Example.COM.br ')).toBe('ana.souza+pix@example.com.br');
    expect(normalizePixKey('EMAIL', 'FINANCEIRO@LOJA.EXAMPLE')).toBe('financeiro@loja.example');
  });

  it('accepts exactly 77 characters and refuses 78', () => {
    expect(normalizePixEmail(`${'a'.repeat(64)}@examples.com`)).toHaveLength(77);
    expect(normalizePixEmail(`${'a'.repeat(64)}@exampless.com`)).toBeNull();
  });

  it('refuses addresses that cannot receive mail', () => {
    for (const value of [
      'ana',
      'ana@',
      '@example.com',
      'ana@example',
      'ana@@example.com',
      'ana@exa mple.com',
      'ana..souza@example.com',
      '.ana@example.com',
      'ana@-example.com',
      'ana@example.c0m1',
      'ana@example..com',
      `${'a'.repeat(65)}@x.io`,
    ])
      expect(normalizePixEmail(value), value).toBeNull();
  });
});

describe('PHONE keys', () => {
  it('answers Brazilian mobile numbers in E.164, from international and national forms', () => {
    for (const value of [
      '+5511987654321',
      '+55 11 98765-4321',
      '+55 (11) 98765-4321',
      '(11) 98765-4321',
      '11 98765 4321',
      '11987654321',
      '5511987654321',
    ])
      expect(normalizePixPhone(value), value).toBe('+5511987654321');
    expect(normalizePixKey('PHONE', '(21) 99999-9999')).toBe('+5521999999999');
  });

  it('refuses landlines, foreign numbers, numbers without area code and text', () => {
    for (const value of [
      '+551133334444',
      '(11) 3333-4444',
      '+14155552671',
      '+351912345678',
      '98765-4321',
      '+5500987654321',
      '+55119876543210',
      '+5511987654321 ext. 2',
      'call 11987654321',
      '',
    ])
      expect(normalizePixPhone(value), value).toBeNull();
  });
});

describe('EVP keys', () => {
  it('answers a UUID in lower case', () => {
    expect(normalizePixEvp('123E4567-E89B-42D3-A456-426614174000')).toBe(
      '123e4567-e89b-42d3-a456-426614174000',
    );
    expect(normalizePixKey('EVP', ' 0190a0b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b ')).toBe(
      '0190a0b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b',
    );
  });

  it('refuses anything that is not a hyphenated UUID', () => {
    for (const value of [
      '123e4567e89b42d3a456426614174000',
      '123e4567-e89b-42d3-a456-42661417400',
      '123e4567-e89b-42d3-a456-42661417400g',
      '{123e4567-e89b-42d3-a456-426614174000}',
      'ana@example.com',
    ])
      expect(normalizePixEvp(value), value).toBeNull();
  });
});

describe('every key type', () => {
  it('has a message saying what a valid key looks like', () => {
    for (const keyType of PIX_KEY_TYPES) expect(PIX_KEY_EXPECTATION[keyType]).toMatch(/^must be /);
  });

  it('refuses a valid key of another type', () => {
    expect(normalizePixKey('CPF', 'ana@example.com')).toBeNull();
    expect(normalizePixKey('EMAIL', '529.982.247-25')).toBeNull();
    expect(normalizePixKey('PHONE', '52998224725')).toBeNull();
    expect(normalizePixKey('EVP', '+5511987654321')).toBeNull();
  });
});
