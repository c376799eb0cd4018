/** A simulated Increase bank for the rail's tests: the simulator, a client of it and its simulation routes. */
import { afterAll, afterEach, expect } from 'vitest';
import { createIncreaseClient } from '../../src/rails/increase/client.ts';
import { createIncreaseSimulations } from '../../src/rails/increase/simulations.ts';
import {
  type IncreaseSimulator,
  SIMULATOR_ACCOUNT_ID,
  SIMULATOR_API_KEY,
  startIncreaseSimulator,
} from './simulator.ts';

/** Starts the simulator signing its webhooks with `webhookSecret`, and a client that does not retry. */
export async function openSimulatedBank(webhookSecret: string) {
  const sim = await startIncreaseSimulator({ webhookSecret });
  const options = {
    url: new URL(sim.url),
    apiKey: SIMULATOR_API_KEY,
    accountId: SIMULATOR_ACCOUNT_ID,
    webhookSecret,
    maxRetries: 0,
  };
  return { sim, bank: createIncreaseClient(options), simulate: createIncreaseSimulations(options) };
}

/** Fails each test that sent the simulator a request outside the SDK's types; closes it after the file. */
export function checkSimulator(sim: () => IncreaseSimulator | undefined): void {
  afterEach(() => {
    expect(sim()?.violations ?? []).toEqual([]);
  });
  afterAll(() => sim()?.close());
}
