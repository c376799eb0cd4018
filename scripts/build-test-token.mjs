// Compiles the test contracts (test/chains/contracts/TestToken.sol, the ERC-20, and MockAggregatorV3.sol,
// a price feed) with solc from npm into the checked-in artifacts test/chains/contracts/<Name>.json (ABI
// and creation bytecode) that the real-node tests deploy.
// The compiler is fetched on demand (npx, pinned), as only this script needs it: installing the project
// does not download it. Run: node scripts/build-test-token.mjs
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const SOLC = 'solc@0.8.37';
const dir = new URL('../test/chains/contracts/', import.meta.url);
const CONTRACTS = ['TestToken', 'MockAggregatorV3'];
const input = {
  language: 'Solidity',
  sources: Object.fromEntries(
    CONTRACTS.map((name) => [`${name}.sol`, { content: readFileSync(new URL(`${name}.sol`, dir), 'utf8') }]),
  ),
  settings: {
    evmVersion: 'cancun',
    optimizer: { enabled: true, runs: 200 },
    outputSelection: {
      '*': Object.fromEntries(CONTRACTS.map((name) => [name, ['abi', 'evm.bytecode.object']])),
    },
  },
};
const solcjs = (args, stdin) => {
  const run = spawnSync('npx', ['--yes', '--package', SOLC, 'solcjs', ...args], {
    input: stdin,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) {
    console.error(run.stderr || `solcjs exited with ${run.status}`);
    process.exit(1);
  }
  return run.stdout;
};
// solcjs may print a notice (no SMT solver) before the JSON answer
const answer = solcjs(['--standard-json'], JSON.stringify(input));
const output = JSON.parse(answer.slice(answer.indexOf('{')));
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
if (errors.length > 0) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
const compiler = `solc ${solcjs(['--version']).trim()}`;
for (const name of CONTRACTS) {
  const contract = output.contracts[`${name}.sol`][name];
  const artifact = { compiler, abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  writeFileSync(new URL(`${name}.json`, dir), `${JSON.stringify(artifact, null, 2)}\n`);
}
