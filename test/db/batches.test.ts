import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { createBatches, type Outcome } from '../../src/db/batches.ts';

type Call = { key: string; value: number };

/** Batches whose runs wait until released, recording what each run was given. */
function held(options: { size?: number; inFlight?: number; keyed?: boolean } = {}) {
  const runs: Call[][] = [];
  const releases: (() => void)[] = [];
  const batches = createBatches<Call, number>({
    run: async (items) => {
      runs.push(items);
      await new Promise<void>((resolve) => releases.push(resolve));
      return items.map(
        (item): Outcome<number> =>
          item.value < 0
            ? { ok: false, error: new Error(`refused ${item.value}`) }
            : { ok: true, value: item.value * 10 },
      );
    },
    runOne: async (item) => item.value * 100,
    ...(options.keyed === false ? {} : { keyOf: (item: Call) => item.key }),
    size: options.size ?? 10,
    inFlight: options.inFlight ?? 1,
  });
  return { batches, runs, release: () => releases.shift()?.() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('batches of concurrent calls', () => {
  it('runs a lone call at once, and what queued meanwhile together in the next batch', async () => {
    const { batches, runs, release } = held();
    const first = batches.submit({ key: 'a', value: 1 });
    const rest = [2, 3, 4].map((value) => batches.submit({ key: `k${value}`, value }));
    await tick();
    expect(runs.map((run) => run.map((call) => call.value))).toEqual([[1]]);
    release();
    expect(await first).toBe(10);
    await tick();
    expect(runs.map((run) => run.map((call) => call.value))).toEqual([[1], [2, 3, 4]]);
    release();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
  });

  it('puts calls without keys together whatever they hold, up to the size', async () => {
    const { batches, runs, release } = held({ size: 3, keyed: false });
    const first = batches.submit({ key: 'a', value: 0 });
    const rest = [1, 2, 3, 4].map((value) => batches.submit({ key: 'a', value }));
    // each batch released in turn: the one of the first call, then the two that queued behind it
    for (let batch = 0; batch < 3; batch++) {
      release();
      await tick();
    }
    expect(await first).toBe(0);
    expect(await Promise.all(rest)).toEqual([10, 20, 30, 40]);
    expect(runs.map((run) => run.map((call) => call.value))).toEqual([[0], [1, 2, 3], [4]]);
  });

  it('never puts two calls with the same key in one batch, and keeps them in order', async () => {
    const { batches, runs, release } = held({ size: 10 });
    const first = batches.submit({ key: 'x', value: 0 });
    const calls = [
      batches.submit({ key: 'a', value: 1 }),
      batches.submit({ key: 'a', value: 2 }),
      batches.submit({ key: 'b', value: 3 }),
    ];
    release();
    await first;
    await tick();
    release();
    await tick();
    release();
    await Promise.all(calls);
    expect(runs.map((run) => run.map((call) => call.value))).toEqual([[0], [1, 3], [2]]);
  });

  it('takes at most `size` calls a batch and runs at most `inFlight` batches at once', async () => {
    const { batches, runs, release } = held({ size: 2, inFlight: 2 });
    const calls = [1, 2, 3, 4, 5].map((value) => batches.submit({ key: `k${value}`, value }));
    await tick();
    expect(runs.map((run) => run.map((call) => call.value))).toEqual([[1], [2]]);
    release();
    await tick();
    expect(runs.map((run) => run.map((call) => call.value))).toEqual([[1], [2], [3, 4]]);
    for (let i = 0; i < 3; i++) {
      release();
      await tick();
    }
    expect(await Promise.all(calls)).toEqual([10, 20, 30, 40, 50]);
  });

  it('rejects a refused call alone and answers the others of its batch', async () => {
    const { batches, release } = held();
    const first = batches.submit({ key: 'x', value: 0 });
    const good = batches.submit({ key: 'a', value: 1 });
    const refused = batches.submit({ key: 'b', value: -1 });
    release();
    await first;
    await tick();
    release();
    expect(await good).toBe(10);
    await expect(refused).rejects.toThrow('refused -1');
  });

  it('runs each call of a failed batch again on its own, in the context the call was made in', async () => {
    const context = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const batches = createBatches<Call, number>({
      run: async () => {
        seen.push(context.getStore());
        throw new Error('the batch failed');
      },
      runOne: async (item) => {
        seen.push(context.getStore());
        return item.value;
      },
      keyOf: (item) => item.key,
      size: 10,
      inFlight: 1,
    });
    const answers = await Promise.all([
      context.run('request a', () => batches.submit({ key: 'a', value: 1 })),
      context.run('request b', () => batches.submit({ key: 'b', value: 2 })),
    ]);
    expect(answers).toEqual([1, 2]);
    // the batches ran in no request's context; each call again in its own
    expect(seen).toEqual([undefined, 'request a', undefined, 'request b']);
  });

  it('rejects a call its batch gave no outcome for, and goes on with the next batch', async () => {
    let runs = 0;
    const batches = createBatches<Call, number>({
      run: async (items) => {
        runs++;
        return runs === 1 ? [] : items.map((item): Outcome<number> => ({ ok: true, value: item.value }));
      },
      runOne: async (item) => item.value,
      keyOf: (item) => item.key,
      size: 10,
      inFlight: 1,
    });
    await expect(batches.submit({ key: 'a', value: 1 })).rejects.toThrow('no outcome');
    expect(await batches.submit({ key: 'a', value: 2 })).toBe(2);
  });
});
