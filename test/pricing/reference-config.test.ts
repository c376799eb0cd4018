/** `PONTE_RATES_*`: the defaults the contract names, each overridable, and bad values refused at start. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { DEFAULT_MAX_AGE_S, loadReferenceConfig } from '../../src/rails/rates/config.ts';

describe('market rates configuration', () => {
  it('defaults to the operator rates; with chainlink, to the published Ethereum feeds and the bounds', () => {
    expect(loadReferenceConfig({}).source).toBeNull();
    const config = loadReferenceConfig({ PONTE_RATES_SOURCE: 'chainlink' });
    expect(config).toMatchObject({
      source: 'chainlink',
      chain: 'ETHEREUM',
      feeds: {
        'USDC/USD': '0x8fFfFfd4AfB6115b954Bd326cbe7B4BA576818f6',
        'USDT/USD': '0x3E7d1eAB13ad0104d2750B8863b489D65364e32D',
      },
      maxAgeS: { 'BRL/USD': 129_600, 'USDC/USD': 129_600, 'USDT/USD': 129_600 },
      maxDeviationBps: 300,
      maxJumpBps: 1_000,
      maxOverrideBps: 200,
      spreadBps: {},
      ptaxUrl: 'https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata',
    });
    expect(DEFAULT_MAX_AGE_S).toBe(1.5 * 86_400);
    // no BRL/USD feed is published on Ethereum mainnet: Polygon has one
    expect(config.feeds['BRL/USD']).toBeUndefined();
    expect(loadReferenceConfig({ PONTE_RATES_CHAIN: 'POLYGON' }).feeds['BRL/USD']).toBe(
      '0xB90DA3ff54C3ED09115abf6FbA0Ff4645586af2c',
    );
  });

  it('takes overrides per feed and per pair', () => {
    const config = loadReferenceConfig({
      PONTE_RATES_FEEDS: 'BRL/USD=0x1111111111111111111111111111111111111111',
      PONTE_RATES_MAX_AGE_S: 'BRL/USD=3600',
      PONTE_RATES_SPREAD_BPS: 'BRL/USDC=50,USDC/BRL=40',
    });
    expect(config.feeds['BRL/USD']).toBe('0x1111111111111111111111111111111111111111');
    expect(config.maxAgeS).toEqual({ 'BRL/USD': 3600, 'USDC/USD': 129_600, 'USDT/USD': 129_600 });
    expect(config.spreadBps).toEqual({ 'BRL/USDC': 50, 'USDC/BRL': 40 });
  });

  it('refuses bad values when the service starts', () => {
    expect(() => loadConfig({ PONTE_RATES_SOURCE: 'coingecko' })).toThrow(
      new ConfigError("PONTE_RATES_SOURCE must be chainlink (or unset for the operator's rates)"),
    );
    expect(() => loadConfig({ PONTE_RATES_CHAIN: 'TRON' })).toThrow('EVM chain');
    expect(() =>
      loadConfig({ PONTE_RATES_FEEDS: 'EUR/USD=0x1111111111111111111111111111111111111111' }),
    ).toThrow('PONTE_RATES_FEEDS');
    expect(() => loadConfig({ PONTE_RATES_FEEDS: 'BRL/USD=0x12' })).toThrow('40 hex digits');
    expect(() => loadConfig({ PONTE_SANDBOX_RATES_SPREAD_BPS: 'BRL/USDC=10000' })).toThrow(
      'PONTE_SANDBOX_RATES_SPREAD_BPS',
    );
  });
});
