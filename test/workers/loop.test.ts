import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startLoop, wakeSignal } from '../../src/workers/loop.ts';

const silent = { error() {} };

/** A job whose answers the test sets, recording when (in fake time) each tick ran. */
function job() {
  const ticks: number[] = [];
  let work = 0;
  return {
    ticks,
    setWork(count: number) {
      work = count;
    },
    tick: async () => {
      ticks.push(Date.now());
      const found = work;
      work = 0;
      return found;
    },
  };
}

describe('worker loop', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('an idle worker doubles its sleep from its interval up to the idle ceiling', async () => {
    const worker = job();
    const loop = startLoop('test', 100, worker.tick, silent, { maxIdleMs: 800 });
    await vi.advanceTimersByTimeAsync(4_000);
    await loop.stop();
    // sleeps of 100, 200, 400, 800, then 800 again
    expect(worker.ticks.slice(0, 7)).toEqual([0, 100, 300, 700, 1_500, 2_300, 3_100]);
  });

  it('without an idle ceiling a worker keeps its interval', async () => {
    const worker = job();
    const loop = startLoop('test', 100, worker.tick, silent);
    await vi.advanceTimersByTimeAsync(450);
    await loop.stop();
    expect(worker.ticks).toEqual([0, 100, 200, 300, 400]);
  });

  it('work found resets the back-off to the interval', async () => {
    const worker = job();
    const loop = startLoop('test', 100, worker.tick, silent, { maxIdleMs: 10_000 });
    await vi.advanceTimersByTimeAsync(1_500); // ticks at 0, 100, 300, 700, 1500: now sleeping 1600
    expect(worker.ticks.at(-1)).toBe(1_500);
    worker.setWork(1);
    await vi.advanceTimersByTimeAsync(1_601); // the tick at 3100 finds work, runs again at once (a timer of 0 is 1 ms)
    expect(worker.ticks.slice(-2)).toEqual([3_100, 3_101]);
    await vi.advanceTimersByTimeAsync(400);
    await loop.stop();
    // back to the interval: 100, then 200
    expect(worker.ticks.slice(-2)).toEqual([3_201, 3_401]);
  });

  it('a wake-up runs a sleeping worker at once, without waiting its interval', async () => {
    const worker = job();
    const wake = wakeSignal();
    const loop = startLoop('test', 60_000, worker.tick, silent, { wake, wakeGapMs: 0 });
    await vi.advanceTimersByTimeAsync(10);
    expect(worker.ticks).toEqual([0]);
    wake.wake();
    await vi.advanceTimersByTimeAsync(0);
    await loop.stop();
    expect(worker.ticks).toEqual([0, 10]);
  });

  it('a wake-up resets the back-off and runs the worker no sooner than its wake gap after its last run', async () => {
    const worker = job();
    const wake = wakeSignal();
    const loop = startLoop('test', 100, worker.tick, silent, { maxIdleMs: 10_000, wake });
    await vi.advanceTimersByTimeAsync(1_550); // ticks at 0, 100, 300, 700, 1500; next due at 3100
    wake.wake();
    await vi.advanceTimersByTimeAsync(60);
    expect(worker.ticks.at(-1)).toBe(1_600); // 100 ms after its last run, not at 3100
    await vi.advanceTimersByTimeAsync(400);
    await loop.stop();
    expect(worker.ticks.slice(-3)).toEqual([1_600, 1_700, 1_900]);
  });

  it('a wake-up during a tick runs the worker again after its wake gap', async () => {
    const wake = wakeSignal();
    const ticks: number[] = [];
    const tick = async () => {
      ticks.push(Date.now());
      if (ticks.length === 1) wake.wake(); // notified while it runs
      return 0;
    };
    const loop = startLoop('test', 60_000, tick, silent, { wake, wakeGapMs: 50 });
    await vi.advanceTimersByTimeAsync(100);
    await loop.stop();
    expect(ticks).toEqual([0, 50]);
  });

  it('stopping ends the subscription to wake-ups', async () => {
    const worker = job();
    const wake = wakeSignal();
    const loop = startLoop('test', 60_000, worker.tick, silent, { wake, wakeGapMs: 0 });
    await vi.advanceTimersByTimeAsync(0);
    await loop.stop();
    wake.wake();
    await vi.advanceTimersByTimeAsync(100);
    expect(worker.ticks).toEqual([0]);
  });
});
