/**
 * The AggregatorV3 interface of Chainlink price feeds: the five read functions, written out here (the
 * `@chainlink/contracts` package is BUSL-licensed). A round is (roundId, answer, startedAt, updatedAt,
 * answeredInRound); `answer` is the price with `decimals()` digits after the point.
 */
const ROUND_OUTPUTS = [
  { name: 'roundId', type: 'uint80' },
  { name: 'answer', type: 'int256' },
  { name: 'startedAt', type: 'uint256' },
  { name: 'updatedAt', type: 'uint256' },
  { name: 'answeredInRound', type: 'uint80' },
] as const;

export const aggregatorV3Abi = [
  { type: 'function', name: 'decimals', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint8' }] },
  {
    type: 'function',
    name: 'description',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ type: 'string' }],
  },
  { type: 'function', name: 'version', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }] },
  {
    type: 'function',
    name: 'getRoundData',
    stateMutability: 'view',
    inputs: [{ name: '_roundId', type: 'uint80' }],
    outputs: ROUND_OUTPUTS,
  },
  {
    type: 'function',
    name: 'latestRoundData',
    stateMutability: 'view',
    inputs: [],
    outputs: ROUND_OUTPUTS,
  },
] as const;
