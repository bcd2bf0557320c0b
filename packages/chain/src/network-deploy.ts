// Deploys NADI's contracts to a configured network (BNB Smart Chain, its testnet, or any EVM chain)
// with a key from the environment: NadiToken (unless an existing one is named), PaymentGateway and
// ProofPublisher (owned by the account that publishes: the server's hot wallet), then allow-lists
// NADI and the USDT named in the gateway. `proofPublisherOnly` deploys the ProofPublisher alone, for
// a network whose token and gateway are already deployed. The CLI is scripts/deploy-network.ts;
// the local chain has its own deployment (deploy.ts), so chain 31337 is refused unless asked for.
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  formatEther,
  getAddress,
  http,
  isAddress,
  zeroAddress,
  type Abi,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { nadiTokenAbi, nadiTokenBytecode, paymentGatewayAbi, paymentGatewayBytecode, proofPublisherAbi, proofPublisherBytecode } from './artifacts.ts';
import { localChainId } from './clients.ts';
import { hardhatDevPrivateKeys } from './demo-accounts.ts';

export interface NetworkDeployConfig {
  rpcUrl: string;
  deployerKey: Hex;
  /** An existing NADI token to allow-list instead of deploying a new one. */
  nadi: Address | null;
  usdt: Address | null;
  /** Where the gateway sends payments; the zero address keeps them in the gateway. */
  treasury: Address;
  /** Who may publish proofs (the server's hot wallet address); null: the deployer. */
  proofPublisherOwner: Address | null;
  /** Deploy the ProofPublisher only (the token and the gateway exist already). */
  isProofPublisherOnly: boolean;
  /** When set, the RPC must serve this chain. */
  expectedChainId: number | null;
  isLocalChainAllowed: boolean;
  /** Blocks each transaction must have before the next step. */
  confirmations: number;
}

export interface NetworkDeployment {
  chainId: number;
  deployer: Address;
  /** Null when only the ProofPublisher was deployed. */
  nadi: Address | null;
  isNadiDeployed: boolean;
  usdt: Address | null;
  paymentGateway: Address | null;
  proofPublisher: Address;
  proofPublisherOwner: Address;
}

/** Invalid input: the message lists every problem, one per line, for a person to fix. */
export class DeployConfigError extends Error {
  override name = 'DeployConfigError';
}

const keyPattern = /^0x[0-9a-fA-F]{64}$/;
const confirmationsMax = 64;

function optionalAddress(env: Record<string, string | undefined>, name: string, problems: string[]): Address | null {
  const value = env[name]?.trim();
  if (!value) return null;
  if (!isAddress(value, { strict: false })) {
    problems.push(`${name} must be a 0x address of 40 hex digits, got ${JSON.stringify(value)}`);
    return null;
  }
  return getAddress(value);
}

/**
 * Reads the deployment's inputs from the environment (secrets never come from the command line,
 * where other users of the machine can read them). Throws DeployConfigError naming every problem.
 */
export function parseDeployConfig(
  env: Record<string, string | undefined>,
  flags: { isLocalChainAllowed: boolean; isProofPublisherOnly?: boolean },
): NetworkDeployConfig {
  const problems: string[] = [];
  const rpcUrl = env.RPC_URL?.trim() ?? '';
  if (!rpcUrl) problems.push('RPC_URL is required: the JSON-RPC endpoint of the network, e.g. https://bsc-dataseed.bnbchain.org');
  else if (!/^https?:\/\/\S+$/.test(rpcUrl)) problems.push(`RPC_URL must be an http(s) URL, got ${JSON.stringify(rpcUrl)}`);
  const key = env.DEPLOYER_PRIVATE_KEY?.trim() ?? '';
  if (!key) problems.push('DEPLOYER_PRIVATE_KEY is required: 0x followed by 64 hex digits, the key of the account that pays and owns the contracts');
  else if (!keyPattern.test(key)) problems.push('DEPLOYER_PRIVATE_KEY must be 0x followed by 64 hex digits (its value is not shown)');
  const nadi = optionalAddress(env, 'NADI_ADDRESS', problems);
  const usdt = optionalAddress(env, 'USDT_ADDRESS', problems);
  const treasury = optionalAddress(env, 'PAYMENT_TREASURY_ADDRESS', problems) ?? zeroAddress;
  const proofPublisherOwner = optionalAddress(env, 'PROOF_PUBLISHER_OWNER', problems);
  if (proofPublisherOwner === zeroAddress) problems.push('PROOF_PUBLISHER_OWNER must not be the zero address: nobody could publish');
  const chainIdText = env.CHAIN_ID?.trim();
  if (chainIdText && !/^[1-9][0-9]{0,15}$/.test(chainIdText)) problems.push(`CHAIN_ID must be a positive whole number, got ${JSON.stringify(chainIdText)}`);
  const confirmationsText = env.DEPLOY_CONFIRMATIONS?.trim() || '1';
  const confirmations = Number(confirmationsText);
  if (!/^[0-9]{1,2}$/.test(confirmationsText) || confirmations < 1 || confirmations > confirmationsMax) {
    problems.push(`DEPLOY_CONFIRMATIONS must be a whole number from 1 to ${confirmationsMax}, got ${JSON.stringify(confirmationsText)}`);
  }
  if (nadi && usdt && nadi === usdt) problems.push('NADI_ADDRESS and USDT_ADDRESS are the same address');
  if (problems.length > 0) throw new DeployConfigError(problems.join('\n'));
  return {
    rpcUrl,
    deployerKey: key as Hex,
    nadi,
    usdt,
    treasury,
    proofPublisherOwner,
    isProofPublisherOnly: flags.isProofPublisherOnly === true,
    expectedChainId: chainIdText ? Number(chainIdText) : null,
    isLocalChainAllowed: flags.isLocalChainAllowed,
    confirmations,
  };
}

function networkChain(id: number, rpcUrl: string): Chain {
  return defineChain({ id, name: `chain ${id}`, nativeCurrency: { name: 'Native', symbol: 'NATIVE', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
}

/** Hardhat's public test keys deploy to the local chain only: on any other, anyone can take what they hold. */
export function assertKeyFitsChain(key: Hex, chainId: number): void {
  const isPublicTestKey = (hardhatDevPrivateKeys as readonly string[]).includes(key.toLowerCase());
  if (isPublicTestKey && chainId !== localChainId) {
    throw new DeployConfigError(`DEPLOYER_PRIVATE_KEY is one of Hardhat's public test keys: anything it holds on chain ${chainId} can be taken by anyone`);
  }
}

/** The checks that need the chain: which chain it is, whether the key may be used there, funds, code at the given addresses. */
async function checkNetwork(config: NetworkDeployConfig, client: PublicClient, account: PrivateKeyAccount): Promise<number> {
  const chainId = await client.getChainId().catch((error: unknown) => {
    throw new DeployConfigError(
      `RPC_URL ${config.rpcUrl} does not answer eth_chainId: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
  });
  if (chainId === localChainId && !config.isLocalChainAllowed) {
    throw new DeployConfigError(
      `RPC_URL serves chain ${localChainId}, a local Hardhat node: refusing without --allow-local-chain (npm start deploys there by itself)`,
    );
  }
  if (config.expectedChainId !== null && chainId !== config.expectedChainId) {
    throw new DeployConfigError(`RPC_URL serves chain ${chainId}, but CHAIN_ID says ${config.expectedChainId}`);
  }
  assertKeyFitsChain(config.deployerKey, chainId);
  const balance = await client.getBalance({ address: account.address });
  if (balance === 0n) throw new DeployConfigError(`the deployer ${account.address} has no native coin on chain ${chainId} to pay for gas`);
  const problems: string[] = [];
  for (const [name, address] of [
    ['NADI_ADDRESS', config.nadi],
    ['USDT_ADDRESS', config.usdt],
  ] as const) {
    if (!address) continue;
    const code = await client.getCode({ address });
    if (!code || code === '0x') problems.push(`${name} ${address} has no contract code on chain ${chainId}`);
  }
  if (problems.length > 0) throw new DeployConfigError(problems.join('\n'));
  return chainId;
}

/**
 * Deploys and configures, sending one transaction at a time and waiting for each to have
 * `confirmations` blocks, so a failure stops at a known step (its hash is in the error) and the
 * deployer's nonces stay in order. `progress` receives one line per step. With
 * `isProofPublisherOnly`, the ProofPublisher is the only transaction.
 */
export async function deployToNetwork(config: NetworkDeployConfig, progress: (line: string) => void = () => {}): Promise<NetworkDeployment> {
  const account = privateKeyToAccount(config.deployerKey);
  const probe = createPublicClient({ transport: http(config.rpcUrl) });
  const chainId = await checkNetwork(config, probe, account);
  const chain = networkChain(chainId, config.rpcUrl);
  const client = createPublicClient({ chain, transport: http(config.rpcUrl) });
  const wallet = createWalletClient({ account, chain, transport: http(config.rpcUrl) });
  progress(`chain ${chainId}, deployer ${account.address} (balance ${formatEther(await client.getBalance({ address: account.address }))})`);

  const confirm = async (step: string, hash: Hash) => {
    progress(`${step}: ${hash}`);
    const receipt = await client.waitForTransactionReceipt({ hash, confirmations: config.confirmations });
    if (receipt.status !== 'success') throw new Error(`${step} reverted (transaction ${hash})`);
    return receipt;
  };
  const deploy = async (name: string, abi: Abi, bytecode: Hex, args: readonly unknown[]): Promise<Address> => {
    const receipt = await confirm(`deploy ${name}`, await wallet.deployContract({ abi, bytecode, args }));
    if (!receipt.contractAddress) throw new Error(`deploy ${name} created no contract (transaction ${receipt.transactionHash})`);
    return getAddress(receipt.contractAddress);
  };

  const proofPublisherOwner = config.proofPublisherOwner ?? account.address;
  const deployPublisher = () => deploy('ProofPublisher', proofPublisherAbi, proofPublisherBytecode, [proofPublisherOwner]);
  if (config.isProofPublisherOnly) {
    const proofPublisher = await deployPublisher();
    return { chainId, deployer: account.address, nadi: null, isNadiDeployed: false, usdt: null, paymentGateway: null, proofPublisher, proofPublisherOwner };
  }
  const nadi = config.nadi ?? (await deploy('NadiToken', nadiTokenAbi, nadiTokenBytecode, []));
  const paymentGateway = await deploy('PaymentGateway', paymentGatewayAbi, paymentGatewayBytecode, [config.treasury]);
  const proofPublisher = await deployPublisher();
  for (const token of [nadi, config.usdt]) {
    if (!token) continue;
    await confirm(
      `allow ${token}`,
      await wallet.writeContract({ address: paymentGateway, abi: paymentGatewayAbi, functionName: 'setTokenAllowed', args: [token, true] }),
    );
  }
  return {
    chainId,
    deployer: account.address,
    nadi,
    isNadiDeployed: config.nadi === null,
    usdt: config.usdt,
    paymentGateway,
    proofPublisher,
    proofPublisherOwner,
  };
}

/** The server's settings for what was deployed, as lines for an env file. */
export function envLines(d: NetworkDeployment): string[] {
  return [
    `CHAIN_ID=${d.chainId}`,
    ...(d.nadi ? [`NADI_ADDRESS=${d.nadi}`] : []),
    ...(d.usdt ? [`USDT_ADDRESS=${d.usdt}`] : []),
    ...(d.paymentGateway ? [`PAYMENT_GATEWAY_ADDRESS=${d.paymentGateway}`] : []),
    `PROOF_PUBLISHER_ADDRESS=${d.proofPublisher}`,
  ];
}
