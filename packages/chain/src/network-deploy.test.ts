import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, parseEther, toHex, zeroAddress, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { nadiTokenAbi, paymentGatewayAbi, proofPublisherAbi } from './artifacts.ts';
import { publicClientFor } from './clients.ts';
import { hardhatAccounts, hardhatDevPrivateKeys } from './demo-accounts.ts';
import { deployLocalContracts, type LocalContracts } from './deploy.ts';
import { rpcRequest, startLocalChain, type LocalChain } from './local-chain.ts';
import { DeployConfigError, assertKeyFitsChain, parseDeployConfig } from './network-deploy.ts';

// The deploy script for a configured network, run as the CLI it is (a child process reading its
// environment) against a local Hardhat node, which it only accepts with --allow-local-chain.
const scriptPath = fileURLToPath(new URL('../scripts/deploy-network.ts', import.meta.url));
let chain: LocalChain;
let local: LocalContracts;
let client: ReturnType<typeof publicClientFor>;

beforeAll(async () => {
  chain = await startLocalChain();
  local = await deployLocalContracts(chain.rpcUrl);
  client = publicClientFor(chain.rpcUrl, chain.chainId);
});
afterAll(async () => {
  await chain?.stop();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runScript(env: Record<string, string>, args: string[] = []): Promise<Run> {
  // Only what the test names: nothing from the developer's own environment leaks in.
  const child = spawn(process.execPath, [scriptPath, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

function envOf(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((line) => line.split('=') as [string, string]),
  );
}

/** A deployer of its own (fresh key with 10 ETH), so nothing depends on the demo accounts' nonces. */
async function fundedKey(): Promise<`0x${string}`> {
  const key = generatePrivateKey();
  await rpcRequest(chain.rpcUrl, 'hardhat_setBalance', [privateKeyToAccount(key).address, toHex(parseEther('10'))]);
  return key;
}

describe('parseDeployConfig', () => {
  it('names every missing or malformed input at once, never echoing the key', () => {
    const attempt = () =>
      parseDeployConfig(
        {
          RPC_URL: 'ftp://x',
          DEPLOYER_PRIVATE_KEY: '0xsecret',
          USDT_ADDRESS: '0x123',
          PROOF_PUBLISHER_OWNER: zeroAddress,
          CHAIN_ID: '56x',
          DEPLOY_CONFIRMATIONS: '0',
        },
        { isLocalChainAllowed: false },
      );
    expect(attempt).toThrow(DeployConfigError);
    let message = '';
    try {
      attempt();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split('\n')).toEqual([
      'RPC_URL must be an http(s) URL, got "ftp://x"',
      'DEPLOYER_PRIVATE_KEY must be 0x followed by 64 hex digits (its value is not shown)',
      'USDT_ADDRESS must be a 0x address of 40 hex digits, got "0x123"',
      'PROOF_PUBLISHER_OWNER must not be the zero address: nobody could publish',
      'CHAIN_ID must be a positive whole number, got "56x"',
      'DEPLOY_CONFIRMATIONS must be a whole number from 1 to 64, got "0"',
    ]);
    expect(message).not.toContain('secret');
    expect(() => parseDeployConfig({}, { isLocalChainAllowed: false })).toThrow(/RPC_URL is required[\s\S]*DEPLOYER_PRIVATE_KEY is required/);
  });

  it('lets Hardhat’s public test keys deploy to the local chain only', () => {
    for (const key of hardhatDevPrivateKeys) {
      expect(() => assertKeyFitsChain(key, 56)).toThrow(/public test keys/);
      expect(() => assertKeyFitsChain(key.toUpperCase().replace('0X', '0x') as `0x${string}`, 97)).toThrow(/public test keys/);
      expect(() => assertKeyFitsChain(key, 31337)).not.toThrow();
    }
    expect(() => assertKeyFitsChain(generatePrivateKey(), 56)).not.toThrow();
  });

  it('reads a full configuration, checksumming addresses', () => {
    const key = generatePrivateKey();
    const config = parseDeployConfig(
      {
        RPC_URL: 'https://bsc-dataseed.bnbchain.org',
        DEPLOYER_PRIVATE_KEY: key,
        USDT_ADDRESS: '0x55d398326f99059ff775485246999027b3197955',
        CHAIN_ID: '56',
        DEPLOY_CONFIRMATIONS: '3',
      },
      { isLocalChainAllowed: false },
    );
    expect(config).toEqual({
      rpcUrl: 'https://bsc-dataseed.bnbchain.org',
      deployerKey: key,
      nadi: null,
      usdt: '0x55d398326f99059fF775485246999027B3197955',
      treasury: zeroAddress,
      proofPublisherOwner: null,
      isProofPublisherOnly: false,
      expectedChainId: 56,
      isLocalChainAllowed: false,
      confirmations: 3,
    });
  });
});

describe('npm run chain:deploy (scripts/deploy-network.ts)', () => {
  it('refuses chain 31337 without --allow-local-chain, and sends nothing', async () => {
    const key = await fundedKey();
    const run = await runScript({ RPC_URL: chain.rpcUrl, DEPLOYER_PRIVATE_KEY: key });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('refusing without --allow-local-chain');
    expect(await client.getTransactionCount({ address: privateKeyToAccount(key).address })).toBe(0);
  });

  it('deploys NADI, the gateway and the proof publisher, allow-lists NADI and the given USDT, and prints the env lines', async () => {
    const key = await fundedKey();
    const deployer = privateKeyToAccount(key).address;
    const treasury = hardhatAccounts[7];
    const hotWallet = hardhatAccounts[8];
    const run = await runScript(
      {
        RPC_URL: chain.rpcUrl,
        DEPLOYER_PRIVATE_KEY: key,
        USDT_ADDRESS: local.usdt.toLowerCase(),
        PAYMENT_TREASURY_ADDRESS: treasury,
        PROOF_PUBLISHER_OWNER: hotWallet,
        CHAIN_ID: '31337',
      },
      ['--allow-local-chain'],
    );
    expect(run.stderr).toContain('deploy NadiToken');
    expect(run.stderr).not.toContain('transferOwnership');
    expect(run.code).toBe(0);
    const env = envOf(run.stdout);
    expect(Object.keys(env)).toEqual(['CHAIN_ID', 'NADI_ADDRESS', 'USDT_ADDRESS', 'PAYMENT_GATEWAY_ADDRESS', 'PROOF_PUBLISHER_ADDRESS']);
    const publisher = env.PROOF_PUBLISHER_ADDRESS as Address;
    expect(await client.readContract({ address: publisher, abi: proofPublisherAbi, functionName: 'owner' })).toBe(hotWallet);
    expect(env.CHAIN_ID).toBe('31337');
    expect(env.USDT_ADDRESS).toBe(local.usdt);
    const nadi = env.NADI_ADDRESS as Address;
    const gateway = env.PAYMENT_GATEWAY_ADDRESS as Address;
    expect(getAddress(nadi)).toBe(nadi);
    expect(nadi).not.toBe(local.nadi);
    expect(await client.readContract({ address: nadi, abi: nadiTokenAbi, functionName: 'symbol' })).toBe('NADI');
    expect(await client.readContract({ address: nadi, abi: nadiTokenAbi, functionName: 'balanceOf', args: [deployer] })).toBe(parseEther('1000000000'));
    expect(await client.readContract({ address: gateway, abi: paymentGatewayAbi, functionName: 'owner' })).toBe(deployer);
    expect(await client.readContract({ address: gateway, abi: paymentGatewayAbi, functionName: 'treasury' })).toBe(treasury);
    for (const token of [nadi, local.usdt]) {
      expect(await client.readContract({ address: gateway, abi: paymentGatewayAbi, functionName: 'allowedTokens', args: [token] })).toBe(true);
    }
    expect(await client.readContract({ address: gateway, abi: paymentGatewayAbi, functionName: 'allowedTokens', args: [local.nadi] })).toBe(false);
    // Three deployments and two allow-list calls: nothing else.
    expect(await client.getTransactionCount({ address: deployer })).toBe(5);
  });

  it('allow-lists an existing NADI instead of deploying one', async () => {
    const key = await fundedKey();
    const run = await runScript({ RPC_URL: chain.rpcUrl, DEPLOYER_PRIVATE_KEY: key, NADI_ADDRESS: local.nadi }, ['--allow-local-chain']);
    expect(run.code).toBe(0);
    const env = envOf(run.stdout);
    expect(env).toMatchObject({ NADI_ADDRESS: local.nadi });
    expect(env.USDT_ADDRESS).toBeUndefined();
    const gateway = env.PAYMENT_GATEWAY_ADDRESS as Address;
    expect(await client.readContract({ address: gateway, abi: paymentGatewayAbi, functionName: 'allowedTokens', args: [local.nadi] })).toBe(true);
    expect(await client.readContract({ address: gateway, abi: paymentGatewayAbi, functionName: 'recipient' })).toBe(gateway);
    expect(await client.getTransactionCount({ address: privateKeyToAccount(key).address })).toBe(3);
  });

  it('deploys the proof publisher alone with --proof-publisher-only, owned by the deployer unless told, and says so', async () => {
    const key = await fundedKey();
    const deployer = privateKeyToAccount(key).address;
    const run = await runScript({ RPC_URL: chain.rpcUrl, DEPLOYER_PRIVATE_KEY: key }, ['--allow-local-chain', '--proof-publisher-only']);
    expect(run.code).toBe(0);
    const env = envOf(run.stdout);
    expect(Object.keys(env)).toEqual(['CHAIN_ID', 'PROOF_PUBLISHER_ADDRESS']);
    expect(run.stderr).toContain(`owned by the deployer ${deployer}`);
    const publisher = env.PROOF_PUBLISHER_ADDRESS as Address;
    expect(await client.readContract({ address: publisher, abi: proofPublisherAbi, functionName: 'owner' })).toBe(deployer);
    expect(await client.getTransactionCount({ address: deployer })).toBe(1);
  });

  it('refuses clearly: bad inputs, a wrong CHAIN_ID, a token address without code, a deployer without gas', async () => {
    const key = await fundedKey();
    const cases: [Record<string, string>, string][] = [
      [{ RPC_URL: chain.rpcUrl }, 'DEPLOYER_PRIVATE_KEY is required'],
      [{ RPC_URL: chain.rpcUrl, DEPLOYER_PRIVATE_KEY: key, CHAIN_ID: '56' }, 'RPC_URL serves chain 31337, but CHAIN_ID says 56'],
      [
        { RPC_URL: chain.rpcUrl, DEPLOYER_PRIVATE_KEY: key, USDT_ADDRESS: hardhatAccounts[3] },
        `USDT_ADDRESS ${hardhatAccounts[3]} has no contract code on chain 31337`,
      ],
      [{ RPC_URL: chain.rpcUrl, DEPLOYER_PRIVATE_KEY: generatePrivateKey() }, 'has no native coin on chain 31337'],
      [{ RPC_URL: 'http://127.0.0.1:9', DEPLOYER_PRIVATE_KEY: key }, 'does not answer eth_chainId'],
    ];
    for (const [env, expected] of cases) {
      const run = await runScript(env, ['--allow-local-chain']);
      expect(run.code, expected).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(expected);
    }
    expect(await client.getTransactionCount({ address: privateKeyToAccount(key).address })).toBe(0);
    const unknown = await runScript({}, ['--yes']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Usage:');
  });
});
