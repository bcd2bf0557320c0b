// The chain side of the journeys: the deployer (hardhat account #0, unlocked on the local node)
// funds each user's wallet with gas and NADI, and a user sends NADI to its deposit address from its
// own key. Everything here talks to the chain directly (cluster.chainRpcUrl), not through the RPC
// fault switch the instances use: the users' wallets are not the server's.
import { erc20Abi, parseEther, parseUnits, type Address, type Hash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { localWalletClient, publicClientFor } from '@nadi/chain/clients';
import { deployerAddress } from '@nadi/chain/demo-accounts';
import type { Cluster } from '../cluster/types.ts';

export class ChainDriver {
  private readonly client;
  private readonly deployer;
  /** One deployer transaction at a time: the node picks nonces, but a receipt wait per send keeps it simple. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly cluster: Cluster;

  constructor(cluster: Cluster) {
    this.cluster = cluster;
    this.client = publicClientFor(cluster.chainRpcUrl, cluster.chainId);
    this.deployer = localWalletClient(cluster.chainRpcUrl, deployerAddress);
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async confirmed(hash: Hash): Promise<void> {
    const receipt = await this.client.waitForTransactionReceipt({ hash, timeout: 60_000 });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
  }

  /** Gas and NADI from the deployer to `to`. */
  async fund(to: Address, nadi: string, eth = '1'): Promise<void> {
    await this.serial(async () => {
      await this.confirmed(await this.deployer.sendTransaction({ to, value: parseEther(eth) }));
      await this.confirmed(
        await this.deployer.writeContract({ address: this.cluster.contracts.nadi, abi: erc20Abi, functionName: 'transfer', args: [to, parseUnits(nadi, 18)] }),
      );
    });
  }

  /** The user's own ERC-20 transfer of NADI to its deposit address; answers the mined transaction. */
  async deposit(privateKey: `0x${string}`, depositAddress: Address, nadi: string): Promise<Hash> {
    const wallet = localWalletClient(this.cluster.chainRpcUrl, privateKeyToAccount(privateKey));
    const hash = await wallet.writeContract({
      address: this.cluster.contracts.nadi,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [depositAddress, parseUnits(nadi, 18)],
    });
    await this.confirmed(hash);
    return hash;
  }
}
