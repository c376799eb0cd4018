import { describe, expect, it } from 'vitest';
import { normalizeCnpj, normalizeCpf } from '../../src/lib/tax-id.ts';

describe('CPF', () => {
  it('accepts valid check digits with or without punctuation and formats them', () => {
    expect(normalizeCpf('52998224725')).toBe('529.982.247-25');
    expect(normalizeCpf('529.982.247-25')).toBe('529.982.247-25');
  });
  it('refuses wrong check digits, wrong lengths, letters and repeated digits', () => {
    for (const bad of ['529.982.247-26', '5299822472', '529982247250', '5299822472a', '111.111.111-11', '']) {
      expect(normalizeCpf(bad)).toBeNull();
    }
  });
});

describe('CNPJ', () => {
  it('accepts numeric CNPJs and formats them', () => {
    expect(normalizeCnpj('11222333000181')).toBe('11.222.333/0001-81');
    expect(normalizeCnpj('11.222.333/0001-81')).toBe('11.222.333/0001-81');
  });
  it('accepts the alphanumeric CNPJ, case-insensitively', () => {
    expect(normalizeCnpj('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(normalizeCnpj('12.abc.345/01de-35')).toBe('12.ABC.345/01DE-35');
  });
  it('refuses wrong check digits and malformed values', () => {
    for (const bad of [
      '11.222.333/0001-82',
      '12ABC34501DE36',
      '12ABC34501DEXX',
      '1122233300018',
      '00000000000000',
    ]) {
      expect(normalizeCnpj(bad)).toBeNull();
    }
  });
});
