/**
 * The market reference read from Chainlink-shaped feeds on a real EVM node: mock AggregatorV3 contracts
 * on anvil whose answer, `updatedAt` and rounds each test moves, read through viem, judged by the guards
 * (stale, not positive, a jump between rounds, off PTAX, a node that errors or does not answer), and kept
 * per process, read again in the background once older than the refresh interval.
 */
import type { Address } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chainlinkReader } from '../../src/rails/rates/chainlink.ts';
import { DEFAULT_MAX_AGE_S, FEEDS, type Feed } from '../../src/rails/rates/config.ts';
import type { PtaxBulletin } from '../../src/rails/rates/ptax.ts';
import { RATE_SCALE, type ReferenceRates, referenceRates } from '../../src/rails/rates/reference.ts';
import { type Anvil, startAnvil } from '../chains/anvil.ts';
import { portInRange, startSilentNode } from './reference-support.ts';

const { node: anvil, reason } = await startAnvil({ port: await portInRange() });
if (!anvil) console.warn(`SKIPPED: the feed tests need anvil, which could not start here: ${reason}`);

/** 8 decimals, as Chainlink's USD feeds. */
const usd = (text: string) => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole! + fraction.padEnd(8, '0'));
};
const atRateScale = (feedAnswer: bigint) => feedAnswer * 10n ** BigInt(RATE_SCALE - 8);
const ptax = (buy: bigint, sell: bigint): PtaxBulletin => ({
  date: '2026-11-27',
  buy,
  sell,
  publishedAt: '2026-11-27 13:10:24.123',
});

describe.skipIf(!anvil)('market reference from feeds on a real node (anvil)', () => {
  const node = anvil as Anvil;
  const feeds = {} as Record<Feed, Address>;
  let clock: Date;
  const limits = {
    maxAgeS: { 'BRL/USD': DEFAULT_MAX_AGE_S, 'USDC/USD': DEFAULT_MAX_AGE_S, 'USDT/USD': DEFAULT_MAX_AGE_S },
    maxDeviationBps: 300,
    maxJumpBps: 1_000,
    refreshS: 60,
  };
  const reference = (): ReferenceRates =>
    referenceRates({ config: { ...limits, feeds }, reader: chainlinkReader(node.url), now: () => clock });

  beforeAll(async () => {
    for (const feed of FEEDS) feeds[feed] = await node.deployFeed(8, `${feed.replace('/', ' / ')}`);
  });
  afterAll(() => node.stop());
  beforeEach(async () => {
    clock = new Date(Math.floor(Date.now() / 1000) * 1000);
    await node.setRound(feeds['BRL/USD'], usd('0.19'), clock);
    await node.setRound(feeds['USDC/USD'], usd('1.0001'), clock);
    await node.setRound(feeds['USDT/USD'], usd('0.9998'), clock);
  });

  it('derives each pair mid as the cross of its two feeds, exact to the rate scale', async () => {
    const rates = reference();
    const brlUsdc = await rates.forPair('BRL/USDC');
    // BRL/USDC = BRL/USD ÷ USDC/USD = 0.19 ÷ 1.0001, rounded down at scale 10
    expect(brlUsdc).toMatchObject({ usable: true, source: 'CHAINLINK', rate: 1_899_810_018n, at: clock });
    expect(await rates.forPair('USDT/BRL')).toMatchObject({
      usable: true,
      rate: (atRateScale(usd('0.9998')) * 10n ** 10n) / atRateScale(usd('0.19')),
    });
  });

  it('does not use a feed older than its maximum age', async () => {
    await node.setRound(
      feeds['BRL/USD'],
      usd('0.19'),
      new Date(clock.getTime() - (DEFAULT_MAX_AGE_S + 1) * 1000),
    );
    const brlUsdc = await reference().forPair('BRL/USDC');
    expect(brlUsdc.usable).toBe(false);
    expect(brlUsdc).toMatchObject({ reason: expect.stringContaining(`over ${DEFAULT_MAX_AGE_S} s`) });
    // at exactly the maximum age it is still used
    await node.setRound(feeds['BRL/USD'], usd('0.19'), new Date(clock.getTime() - DEFAULT_MAX_AGE_S * 1000));
    expect((await reference().forPair('BRL/USDC')).usable).toBe(true);
  });

  it('does not use an answer that is not positive', async () => {
    await node.setRound(feeds['USDC/USD'], 0n, clock);
    expect(await reference().forPair('BRL/USDC')).toMatchObject({
      usable: false,
      reason: 'USDC/USD: the answer is not positive',
    });
    await node.setRound(feeds['USDC/USD'], -1n, clock);
    expect((await reference().forPair('USDC/BRL')).usable).toBe(false);
    // the other stablecoin's pairs are unaffected
    expect((await reference().forPair('BRL/USDT')).usable).toBe(true);
  });

  it('does not use a feed that jumped beyond the maximum between rounds', async () => {
    // 0.19 → 0.2090 is exactly 1000 bps: within; → 0.2091 is over
    await node.setRound(feeds['BRL/USD'], usd('0.209'), clock);
    expect((await reference().forPair('BRL/USDC')).usable).toBe(true);
    await node.setRound(feeds['BRL/USD'], usd('0.19'), clock);
    await node.setRound(feeds['BRL/USD'], usd('0.2091'), clock);
    expect(await reference().forPair('BRL/USDC')).toMatchObject({
      usable: false,
      reason: expect.stringContaining('BRL/USD: moved 1006 bps in one round, over 1000'),
    });
  });

  it('does not use BRL/USD further from PTAX than the maximum deviation', async () => {
    const rates = reference();
    // PTAX 5.2600 / 5.2606: 0.190108… USD per BRL, 6 bps from the feed
    rates.setPtax(ptax(52_600_000_000n, 52_606_000_000n));
    await rates.refresh();
    // the pair's mid (0.19 ÷ 1.0001) stands 7 bps (rounded up) from PTAX's, the stablecoin taken at par
    expect(await rates.forPair('BRL/USDC')).toMatchObject({ usable: true, deviationBps: 7n });
    // PTAX 5.0000: 0.2 USD per BRL, the feed's 0.19 is 500 bps off
    rates.setPtax(ptax(50_000_000_000n, 50_000_000_000n));
    await rates.refresh();
    expect(await rates.forPair('BRL/USDC')).toMatchObject({
      usable: false,
      reason: 'BRL/USD: 500 bps from PTAX (2026-11-27), over 300',
    });
  });

  it('keeps a reading until it is older than the refresh interval, then reads the node again', async () => {
    const rates = reference();
    const first = await rates.forPair('BRL/USDC');
    await node.setRound(feeds['BRL/USD'], usd('0.2'), clock);
    expect(await rates.forPair('BRL/USDC')).toEqual(first);
    clock = new Date(clock.getTime() + limits.refreshS * 1000);
    // the old reading is answered while the fresh read it started runs; then the fresh one
    expect(await rates.forPair('BRL/USDC')).toEqual(first);
    await rates.refresh();
    expect(await rates.forPair('BRL/USDC')).toMatchObject({
      usable: true,
      rate: (atRateScale(usd('0.2')) * 10n ** 10n) / atRateScale(usd('1.0001')),
    });
  });

  it('never makes a quote wait on the node once it has a reading, and still refuses a leg grown too old', async () => {
    let hang = false;
    const onNode = chainlinkReader(node.url);
    const rates = referenceRates({
      config: { ...limits, feeds },
      reader: {
        read: (address, scale) => (hang ? new Promise(() => undefined) : onNode.read(address, scale)),
      },
      now: () => clock,
    });
    const first = await rates.forPair('BRL/USDC');
    expect(first.usable).toBe(true);
    hang = true;
    clock = new Date(clock.getTime() + limits.refreshS * 1000);
    // the node no longer answers: the reading in hand is answered at once, twice
    expect(await rates.forPair('BRL/USDC')).toEqual(first);
    expect(await rates.forPair('USDC/BRL')).toMatchObject({ usable: true });
    // once its legs are older than their maximum age, the reading in hand is no longer used
    clock = new Date(clock.getTime() + DEFAULT_MAX_AGE_S * 1000);
    expect(await rates.forPair('BRL/USDC')).toMatchObject({
      usable: false,
      reason: expect.stringContaining(`over ${DEFAULT_MAX_AGE_S} s`),
    });
  });

  it('gives a reason, not a rate, when the node errors or does not answer in time', async () => {
    const silent = await startSilentNode();
    try {
      const rates = referenceRates({
        config: { ...limits, feeds },
        reader: chainlinkReader(silent.url, { timeoutMs: 300 }),
        now: () => clock,
      });
      expect(await rates.forPair('BRL/USDC')).toMatchObject({
        usable: false,
        reason: expect.stringMatching(/^BRL\/USD: .*(did not answer|took too long|timed out)/i),
      });
    } finally {
      await silent.close();
    }
    const closed = `http://127.0.0.1:${await portInRange()}`;
    const refused = await referenceRates({
      config: { ...limits, feeds },
      reader: chainlinkReader(closed, { timeoutMs: 2_000 }),
      now: () => clock,
    }).forPair('USDT/BRL');
    expect(refused).toMatchObject({ usable: false, reason: expect.stringMatching(/^USDT\/USD: feed 0x/) });
    // an address with no feed deployed is an error of the read, not a rate
    const empty = await referenceRates({
      config: { ...limits, feeds: { ...feeds, 'USDC/USD': '0x000000000000000000000000000000000000dEaD' } },
      reader: chainlinkReader(node.url),
      now: () => clock,
    }).forPair('BRL/USDC');
    expect(empty).toMatchObject({ usable: false, reason: expect.stringMatching(/^USDC\/USD: feed 0x/) });
  });
});
