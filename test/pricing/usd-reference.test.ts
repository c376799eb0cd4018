/**
 * The market reference of the dollar pairs: one Chainlink feed each (USD→USDC = 1 ÷ USDC/USD, USDC→USD =
 * USDC/USD; docs.chain.link/data-feeds/price-feeds/addresses lists USDC/USD and USDT/USD), as old as that
 * feed, and never compared with PTAX, which prices the real only.
 */
import { describe, expect, it } from 'vitest';
import { pairReference } from '../../src/rails/rates/reference.ts';

const at = new Date('2026-11-20T12:00:00Z');
const usdcUsd = { usable: true as const, rate: 10_001_000_000n, at, roundId: 7n };
const ptax = {
  date: '2026-11-20',
  buy: 52_000_000_000n,
  sell: 52_010_000_000n,
  publishedAt: '2026-11-20 13:09:00',
};

describe('the market reference of the dollar pairs', () => {
  it('derives USD→USDC as 1 ÷ USDC/USD and USDC→USD as USDC/USD, as old as the one feed, without PTAX', () => {
    expect(pairReference('USD/USDC', { 'USDC/USD': usdcUsd }, ptax)).toEqual({
      usable: true,
      source: 'CHAINLINK',
      rate: 9_999_000_099n,
      at,
      deviationBps: null,
    });
    expect(pairReference('USDC/USD', { 'USDC/USD': usdcUsd }, ptax)).toEqual({
      usable: true,
      source: 'CHAINLINK',
      rate: 10_001_000_000n,
      at,
      deviationBps: null,
    });
  });

  it('is unusable while its feed is unread or judged unusable, saying which', () => {
    expect(pairReference('USD/USDT', { 'USDC/USD': usdcUsd }, null)).toEqual({
      usable: false,
      reason: 'USDT/USD: no feed configured or read yet',
      at: null,
    });
    const stale = { usable: false as const, reason: 'USDT/USD: updated 90000 s ago, over 86400 s', at };
    expect(pairReference('USDT/USD', { 'USDT/USD': stale }, null)).toEqual(stale);
  });

  it('still compares a BRL pair with PTAX', () => {
    const brlUsd = { usable: true as const, rate: 1_923_000_000n, at, roundId: 3n };
    const found = pairReference('BRL/USDC', { 'BRL/USD': brlUsd, 'USDC/USD': usdcUsd }, ptax);
    expect(found.usable && found.deviationBps).not.toBeNull();
  });
});
