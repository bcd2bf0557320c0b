import { erc20Abi, type PublicClient } from 'viem';
import { getConnection, getPublicClient, switchChain, waitForTransactionReceipt, writeContract } from 'wagmi/actions';
import { paymentGatewayAbi } from '@nadi/chain/artifacts';
import type { WalletClient } from '../wallet/wallet-types.ts';
import type { Address, Hash, PaymentChain } from './payment-flow.ts';
import type { TransferChain } from './transfer-flow.ts';

// The payment flow's wallet and chain calls, on wagmi and viem. Loaded with the stepper only (a
// dynamic import), never with the home route. Reads go to the configured RPC (the server's /rpc
// proxy locally); transactions are signed by the connected wallet.

/** A receipt that has not come by then is reported as a failure; the chain may still include it. */
const receiptWaitMsMax = 5 * 60_000;

function publicClient(wallet: WalletClient): PublicClient {
  const client = getPublicClient(wallet.wagmi);
  if (!client) throw Object.assign(new Error('No chain is configured'), { name: 'ChainNotConfiguredError' });
  return client as PublicClient;
}

/** What one unit of gas costs now: EIP-1559's max fee (what the node checks the balance against), else the legacy price. */
async function feePerGas(client: PublicClient): Promise<bigint> {
  try {
    const fees = await client.estimateFeesPerGas();
    return fees.maxFeePerGas ?? (await client.getGasPrice());
  } catch {
    return client.getGasPrice();
  }
}

/** The account to pay from: the connected one, else the last connection restored, else the preferred wallet. */
async function connectAccount(wallet: WalletClient, sessionAddress: string | null): Promise<Address> {
  const current = wallet.currentAddress() ?? (await wallet.reconnect().catch(() => null));
  if (current) return current as Address;
  const options = wallet.options();
  // Injected wallets first (the list is already ranked); WalletConnect opens its own dialog.
  const option = options.find((item) => item.kind !== 'walletconnect') ?? options[0];
  if (!option) throw Object.assign(new Error('No wallet'), { name: 'ProviderNotFoundError' });
  if (option.kind === 'demo' && wallet.demo && sessionAddress) wallet.demo.selectAccount(sessionAddress);
  return (await wallet.connect(option.id)) as Address;
}

export function createPaymentChain(wallet: WalletClient, sessionAddress: string | null): PaymentChain & TransferChain {
  const client = publicClient(wallet);
  const nativeSymbol = wallet.wagmi.chains[0]?.nativeCurrency.symbol ?? 'ETH';
  return {
    nativeSymbol,
    hasWallet: async () => wallet.currentAddress() !== null || wallet.options().length > 0,
    connect: () => connectAccount(wallet, sessionAddress),
    async chainId() {
      const { connector, chainId } = getConnection(wallet.wagmi);
      // Asked of the wallet itself: wagmi's copy may lag behind a switch made in the wallet.
      return connector ? connector.getChainId() : (chainId ?? client.chain?.id ?? 0);
    },
    async switchChain(chainId) {
      await switchChain(wallet.wagmi, { chainId });
    },
    tokenBalance: (token, owner) => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] }),
    nativeBalance: (owner) => client.getBalance({ address: owner }),
    allowance: (token, owner, spender) => client.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [owner, spender] }),
    async approveCost(token, spender, amount, owner) {
      const gas = await client.estimateContractGas({ address: token, abi: erc20Abi, functionName: 'approve', args: [spender, amount], account: owner });
      return gas * (await feePerGas(client));
    },
    async payCost(method, gateway, orderKey, token, amount, owner) {
      const gas = await client.estimateContractGas({
        address: gateway,
        abi: paymentGatewayAbi,
        functionName: method,
        args: [orderKey, token, amount],
        account: owner,
      });
      return gas * (await feePerGas(client));
    },
    async transferCost(token, to, amount, owner) {
      const gas = await client.estimateContractGas({ address: token, abi: erc20Abi, functionName: 'transfer', args: [to, amount], account: owner });
      return gas * (await feePerGas(client));
    },
    // With the chain id, wagmi refuses to send when the wallet has moved to another network meanwhile.
    transfer: (token, to, amount, owner, chainId) =>
      writeContract(wallet.wagmi, { address: token, abi: erc20Abi, functionName: 'transfer', args: [to, amount], account: owner, chainId }),
    approve: (token, spender, amount, owner) =>
      writeContract(wallet.wagmi, { address: token, abi: erc20Abi, functionName: 'approve', args: [spender, amount], account: owner }),
    pay: (method, gateway, orderKey, token, amount, owner) =>
      writeContract(wallet.wagmi, { address: gateway, abi: paymentGatewayAbi, functionName: method, args: [orderKey, token, amount], account: owner }),
    async waitForReceipt(hash: Hash) {
      const receipt = await waitForTransactionReceipt(wallet.wagmi, { hash, timeout: receiptWaitMsMax });
      return receipt.status;
    },
  };
}

/** The token balance of `owner`, read from the configured RPC (no wallet connection needed). */
export function readTokenBalance(wallet: WalletClient, token: Address, owner: Address): Promise<bigint> {
  return publicClient(wallet).readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
}
