import { getAddress, getContractAddress, parseUnits, zeroAddress, type Abi, type Address, type Hash, type Hex } from 'viem';
import {
  nadiTokenAbi,
  nadiTokenBytecode,
  paymentGatewayAbi,
  paymentGatewayBytecode,
  proofPublisherAbi,
  proofPublisherBytecode,
  testContractWalletAbi,
  testContractWalletBytecode,
  testUsdtAbi,
  testUsdtBytecode,
} from './artifacts.ts';
import { localChainId, localWalletClient, publicClientFor } from './clients.ts';
import { demoUserAddresses, deployerAddress } from './demo-accounts.ts';

export interface LocalContracts {
  nadi: Address;
  usdt: Address;
  paymentGateway: Address;
  /** ProofPublisher, owned by #0 (the development hot wallet, which publishes). */
  proofPublisher: Address;
  chainId: 31337;
}

export interface DeployOptions {
  /** Where PaymentGateway sends payments; default: the gateway keeps them (owner can withdraw). */
  treasury?: Address;
  /** Who may publish proofs (the server's hot wallet); default #0, the development hot wallet. */
  proofPublisherOwner?: Address;
}

/** What each demo user (#1..#9) receives of each token. Both tokens have 18 decimals. */
export const demoFunding = { nadi: parseUnits('100000', 18), usdt: parseUnits('100000', 18) } as const;

/**
 * Addresses on a fresh chain. A contract's address depends only on its deployer and the deployer's
 * nonce, and deployLocalContracts is the first thing account #0 does (nonces 0, 1, 2, 3), so every
 * fresh node gets these. Anything #0 sends before it shifts them.
 */
export const freshChainAddresses = {
  nadi: getContractAddress({ from: deployerAddress, nonce: 0n }),
  usdt: getContractAddress({ from: deployerAddress, nonce: 1n }),
  paymentGateway: getContractAddress({ from: deployerAddress, nonce: 2n }),
  proofPublisher: getContractAddress({ from: deployerAddress, nonce: 3n }),
} as const;

type Clients = { wallet: ReturnType<typeof localWalletClient>; client: ReturnType<typeof publicClientFor> };

/** Refuses any chain but the local one: the deployer is a public test account. */
async function localClients(rpcUrl: string, from: Address): Promise<Clients> {
  const client = publicClientFor(rpcUrl, localChainId);
  const chainId = await client.getChainId();
  if (chainId !== localChainId) throw new Error(`Refusing to deploy: ${rpcUrl} is chain ${chainId}, not ${localChainId}`);
  return { wallet: localWalletClient(rpcUrl, from), client };
}

async function confirm(client: Clients['client'], hash: Hash): Promise<Address | null | undefined> {
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`Transaction ${hash} reverted`);
  return receipt.contractAddress;
}

async function deploy(clients: Clients, abi: Abi, bytecode: Hex, args: readonly unknown[] = []): Promise<Address> {
  const hash = await clients.wallet.deployContract({ abi, bytecode, args });
  const address = await confirm(clients.client, hash);
  if (!address) throw new Error(`Deployment ${hash} created no contract`);
  return getAddress(address);
}

// Both helpers send in order and return the hashes unconfirmed: the node assigns nonces in the
// order it receives transactions, so waiting for each receipt in turn would only add latency.
async function allowTokens(wallet: Clients['wallet'], gateway: Address, tokens: Address[]): Promise<Hash[]> {
  const hashes: Hash[] = [];
  for (const token of tokens) {
    const args = [token, true] as const;
    hashes.push(await wallet.writeContract({ address: gateway, abi: paymentGatewayAbi, functionName: 'setTokenAllowed', args }));
  }
  return hashes;
}

async function fundDemoUsers(wallet: Clients['wallet'], nadi: Address, usdt: Address): Promise<Hash[]> {
  const grants = [
    [nadi, demoFunding.nadi],
    [usdt, demoFunding.usdt],
  ] as const;
  const hashes: Hash[] = [];
  for (const user of demoUserAddresses) {
    for (const [token, amount] of grants) {
      hashes.push(await wallet.writeContract({ address: token, abi: nadiTokenAbi, functionName: 'transfer', args: [user, amount] }));
    }
  }
  return hashes;
}

/**
 * Deploys NADI, test USDT, the PaymentGateway and the ProofPublisher (owned by #0, the development
 * hot wallet, unless told) from account #0 (the node's unlocked account, so no key is used here), allow-lists
 * both tokens and funds demo users #1..#9 with demoFunding. On a fresh chain the addresses equal
 * freshChainAddresses.
 */
export async function deployLocalContracts(rpcUrl: string, options: DeployOptions = {}): Promise<LocalContracts> {
  const clients = await localClients(rpcUrl, deployerAddress);
  const nadi = await deploy(clients, nadiTokenAbi, nadiTokenBytecode);
  const usdt = await deploy(clients, testUsdtAbi, testUsdtBytecode);
  const treasury = options.treasury ?? zeroAddress;
  const paymentGateway = await deploy(clients, paymentGatewayAbi, paymentGatewayBytecode, [treasury]);
  const proofPublisher = await deploy(clients, proofPublisherAbi, proofPublisherBytecode, [options.proofPublisherOwner ?? deployerAddress]);
  const hashes = [...(await allowTokens(clients.wallet, paymentGateway, [nadi, usdt])), ...(await fundDemoUsers(clients.wallet, nadi, usdt))];
  await Promise.all(hashes.map((hash) => confirm(clients.client, hash)));
  return { nadi, usdt, paymentGateway, proofPublisher, chainId: localChainId };
}

/**
 * Deploys a ProofPublisher of its own, owned by `owner`, sent from the unlocked account `from`: a
 * server with a database of its own needs a contract of its own, since snapshot ids restart with
 * the database and the contract refuses an id it holds (docs/transparency.md, "Publication").
 */
export async function deployProofPublisher(rpcUrl: string, owner: Address, from: Address): Promise<Address> {
  const clients = await localClients(rpcUrl, from);
  return deploy(clients, proofPublisherAbi, proofPublisherBytecode, [owner]);
}

/**
 * Deploys an ERC-1271 TestContractWallet owned by the EOA `owner`. It is sent from account #0 by
 * default, which uses one of #0's nonces: call it after deployLocalContracts, or pass another
 * unlocked account as `from`, to keep freshChainAddresses valid.
 */
export async function deployContractWallet(rpcUrl: string, owner: Address, from: Address = deployerAddress): Promise<Address> {
  const clients = await localClients(rpcUrl, from);
  return deploy(clients, testContractWalletAbi, testContractWalletBytecode, [owner]);
}
