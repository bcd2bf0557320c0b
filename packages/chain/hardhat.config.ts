import { defineConfig } from 'hardhat/config';

// Only `hardhat node` is used. Contracts are compiled with solc-js by scripts/compile.ts,
// because Hardhat's own build task downloads a compiler at run time.
export default defineConfig({
  networks: {
    node: { type: 'edr-simulated', chainType: 'l1', chainId: 31337 },
  },
});
