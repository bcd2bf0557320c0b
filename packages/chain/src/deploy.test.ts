import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, parseUnits, zeroAddress, type Address } from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { nadiTokenAbi, paymentGatewayAbi, proofPublisherAbi, testContractWalletAbi, testUsdtAbi } from './artifacts.ts';
import { publicClientFor } from './clients.ts';
import { demoUserAddresses, deployerAddress } from './demo-accounts.ts';
import { demoFunding, deployContractWallet, deployLocalContracts, freshChainAddresses, type LocalContracts } from './deploy.ts';
import { startLocalChain, type LocalChain } from './local-chain.ts';

let chain: LocalChain;
let contracts: LocalContracts;
let client: ReturnType<typeof publicClientFor>;

beforeAll(async () => {
  chain = await startLocalChain();
  contracts = await deployLocalContracts(chain.rpcUrl);
  client = publicClientFor(chain.rpcUrl, chain.chainId);
});

afterAll(async () => {
  await chain?.stop();
});

const totalSupply = parseUnits('1000000000', 18);
const tokens = [
  { key: 'nadi', abi: nadiTokenAbi, symbol: 'NADI', funding: demoFunding.nadi },
  { key: 'usdt', abi: testUsdtAbi, symbol: 'USDT', funding: demoFunding.usdt },
] as const;

function balanceOf(token: Address, owner: Address): Promise<bigint> {
  return client.readContract({ address: token, abi: nadiTokenAbi, functionName: 'balanceOf', args: [owner] });
}

describe('deployLocalContracts', () => {
  it('lands at the documented deterministic addresses on a fresh chain', () => {
    expect(contracts).toEqual({ ...freshChainAddresses, chainId: 31337 });
    expect(freshChainAddresses).toEqual({
      nadi: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      usdt: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
      paymentGateway: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
      proofPublisher: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
    });
  });

  it('funds demo users with exactly 100,000 of each token, the rest staying with the deployer', async () => {
    expect(demoFunding).toEqual({ nadi: 100_000n * 10n ** 18n, usdt: 100_000n * 10n ** 18n });
    for (const token of tokens) {
      const address = contracts[token.key];
      expect(await client.readContract({ address, abi: token.abi, functionName: 'symbol' })).toBe(token.symbol);
      expect(await client.readContract({ address, abi: token.abi, functionName: 'decimals' })).toBe(18);
      expect(await client.readContract({ address, abi: token.abi, functionName: 'totalSupply' })).toBe(totalSupply);
      for (const user of demoUserAddresses) expect(await balanceOf(address, user)).toBe(token.funding);
      expect(await balanceOf(address, deployerAddress)).toBe(totalSupply - 9n * token.funding);
    }
  });

  it('emits a Transfer for the mint and for each funding', async () => {
    for (const token of tokens) {
      const logs = await client.getContractEvents({ address: contracts[token.key], abi: token.abi, eventName: 'Transfer', fromBlock: 0n });
      expect(logs.map((log) => log.args)).toEqual([
        { from: zeroAddress, to: deployerAddress, value: totalSupply },
        ...demoUserAddresses.map((to) => ({ from: deployerAddress, to, value: token.funding })),
      ]);
    }
  });

  it('allow-lists exactly NADI and USDT in the gateway, owned by the deployer', async () => {
    const allowed = (token: Address) =>
      client.readContract({ address: contracts.paymentGateway, abi: paymentGatewayAbi, functionName: 'allowedTokens', args: [token] });
    expect(await allowed(contracts.nadi)).toBe(true);
    expect(await allowed(contracts.usdt)).toBe(true);
    expect(await allowed(deployerAddress)).toBe(false);
    expect(await client.readContract({ address: contracts.paymentGateway, abi: paymentGatewayAbi, functionName: 'owner' })).toBe(deployerAddress);
    expect(await client.readContract({ address: contracts.paymentGateway, abi: paymentGatewayAbi, functionName: 'recipient' })).toBe(contracts.paymentGateway);
  });

  it('deploys the ProofPublisher owned by #0 (the development hot wallet), nothing published yet', async () => {
    const read = <F extends 'owner' | 'publishedCount' | 'lastSnapshotId'>(functionName: F) =>
      client.readContract({ address: contracts.proofPublisher, abi: proofPublisherAbi, functionName });
    expect(await read('owner')).toBe(deployerAddress);
    expect(await read('publishedCount')).toBe(0n);
    expect(await read('lastSnapshotId')).toBe(0n);
  });
});

describe('deployLocalContracts with another publisher', () => {
  it('makes the named hot wallet the ProofPublisher’s owner, at the same addresses', async () => {
    const other = await startLocalChain();
    try {
      const hotWallet = demoUserAddresses[8]!;
      const deployed = await deployLocalContracts(other.rpcUrl, { proofPublisherOwner: hotWallet });
      expect(deployed).toEqual({ ...freshChainAddresses, chainId: 31337 });
      const otherClient = publicClientFor(other.rpcUrl, other.chainId);
      expect(await otherClient.readContract({ address: deployed.proofPublisher, abi: proofPublisherAbi, functionName: 'owner' })).toBe(hotWallet);
    } finally {
      await other.stop();
    }
  });
});

describe('deployContractWallet', () => {
  it('deploys a wallet with code, owned by the given EOA', async () => {
    const owner = privateKeyToAccount(generatePrivateKey()).address;
    const wallet = await deployContractWallet(chain.rpcUrl, owner);
    expect(wallet).toBe(getAddress(wallet));
    expect(await client.getCode({ address: wallet })).toMatch(/^0x[0-9a-f]{100,}$/);
    expect(await client.readContract({ address: wallet, abi: testContractWalletAbi, functionName: 'owner' })).toBe(owner);
  });
});
