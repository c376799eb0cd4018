// Compiles test/chains/contracts/TestToken.sol with solc from npm into the checked-in artifact
// test/chains/contracts/TestToken.json (ABI and creation bytecode) that the real-node tests deploy.
// Run: node scripts/build-test-token.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import solc from 'solc';

const dir = new URL('../test/chains/contracts/', import.meta.url);
const source = readFileSync(new URL('TestToken.sol', dir), 'utf8');
const input = {
  language: 'Solidity',
  sources: { 'TestToken.sol': { content: source } },
  settings: {
    evmVersion: 'cancun',
    optimizer: { enabled: true, runs: 200 },
    outputSelection: { '*': { TestToken: ['abi', 'evm.bytecode.object'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
if (errors.length > 0) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
const contract = output.contracts['TestToken.sol'].TestToken;
const artifact = {
  compiler: `solc ${solc.version()}`,
  abi: contract.abi,
  bytecode: `0x${contract.evm.bytecode.object}`,
};
writeFileSync(new URL('TestToken.json', dir), `${JSON.stringify(artifact, null, 2)}\n`);
console.log(`wrote test/chains/contracts/TestToken.json (${solc.version()})`);
