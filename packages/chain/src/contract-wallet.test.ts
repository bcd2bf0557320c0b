import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashMessage, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { testContractWalletAbi } from './artifacts.ts';
import { localWalletClient, publicClientFor } from './clients.ts';
import { demoUserAddresses } from './demo-accounts.ts';
import { deployContractWallet } from './deploy.ts';
import { startLocalChain, type LocalChain } from './local-chain.ts';

let chain: LocalChain;
let client: ReturnType<typeof publicClientFor>;

beforeAll(async () => {
  chain = await startLocalChain();
  client = publicClientFor(chain.rpcUrl, chain.chainId);
});

afterAll(async () => {
  await chain?.stop();
});

/** An EIP-4361 message as the server issues them; the signed address is the contract wallet. */
function siweMessage(address: Address): string {
  return [
    'localhost wants you to sign in with your Ethereum account:',
    address,
    '',
    'Welcome to NADI. Sign this message to prove you own this wallet; it costs no gas.',
    '',
    'URI: http://localhost:5173',
    'Version: 1',
    'Chain ID: 31337',
    'Nonce: k3Vd9sQp2LmX7aZr',
    'Issued At: 2025-01-01T00:00:00.000Z',
  ].join('\n');
}

describe('TestContractWallet (ERC-1271)', () => {
  it("validates its owner's signature through viem verifyMessage, and no one else's", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const stranger = privateKeyToAccount(generatePrivateKey());
    const wallet = await deployContractWallet(chain.rpcUrl, owner.address);
    const message = siweMessage(wallet);
    const signature = await owner.signMessage({ message });

    expect(await client.verifyMessage({ address: wallet, message, signature })).toBe(true);
    expect(await client.verifyMessage({ address: wallet, message, signature: await stranger.signMessage({ message }) })).toBe(false);
    expect(await client.verifyMessage({ address: wallet, message: `${message}\n`, signature })).toBe(false);
  });

  it('answers the ERC-1271 magic value only for the owner, and 0xffffffff for a malformed signature', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const wallet = await deployContractWallet(chain.rpcUrl, owner.address);
    const hash = hashMessage('hello');
    const check = (signature: `0x${string}`) =>
      client.readContract({ address: wallet, abi: testContractWalletAbi, functionName: 'isValidSignature', args: [hash, signature] });

    expect(await check(await owner.sign({ hash }))).toBe('0x1626ba7e');
    expect(await check(await privateKeyToAccount(generatePrivateKey()).sign({ hash }))).toBe('0xffffffff');
    expect(await check('0x1234')).toBe('0xffffffff');
  });

  it('accepts a personal_sign made by the node for an unlocked demo account', async () => {
    const owner = demoUserAddresses[0]!;
    const wallet = await deployContractWallet(chain.rpcUrl, owner);
    const message = siweMessage(wallet);
    const signature = await localWalletClient(chain.rpcUrl, owner).signMessage({ message });

    expect(await client.verifyMessage({ address: wallet, message, signature })).toBe(true);
  });
});
