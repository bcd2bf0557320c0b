// The available trade balances the market's writer last saw, so that a batch of orders from users
// it has seen recently needs no read before it runs. Where the numbers come from:
//   - every committed batch answers with the balances after it of every account it touched
//     (market_settle), read under the batch's own locks, so they are exact at that moment;
//   - a batch that does read balances (for users not cached) keeps what it read.
// What can make an entry wrong is a flow outside the market: a transfer between the fund and the
// trade account, for instance. Those publish a 'balance' event after they commit, and the writer
// forgets the user's entries (service.ts). For whatever slips past that, the rules are:
//   - an entry too high: the batch's statement refuses the flow that would go below zero (NL002),
//     the batch fails as a whole, and its commands run again one by one with fresh reads;
//   - an entry too low: a command is never refused on a cached number; the writer forgets the entry
//     and the command runs in the next batch, which reads the balance first.
// So the cache changes how often the database is read, never what a command is answered.
import type { Asset } from '@nadi/api/wallet';
import { accountKey } from '../ledger/index.ts';

export const balanceCacheEntriesMax = 100_000;
/** The assets of a trade account: a placing user's two balances are read (and cached) together. */
export const tradeAssets: readonly Asset[] = ['NADI', 'USDT'];

export const tradeKey = (userId: number, asset: Asset): string => accountKey({ userId, kind: 'trade', asset });

export class TradeBalanceCache {
  /** By ledger account key; Map order is the order of the last write, so the first is the stalest. */
  private readonly entries = new Map<string, bigint>();

  get(key: string): bigint | undefined {
    return this.entries.get(key);
  }

  set(key: string, available: bigint): void {
    this.entries.delete(key);
    if (this.entries.size >= balanceCacheEntriesMax) {
      const stalest = this.entries.keys().next().value;
      if (stalest !== undefined) this.entries.delete(stalest);
    }
    this.entries.set(key, available);
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  forgetUser(userId: number): void {
    for (const asset of tradeAssets) this.entries.delete(tradeKey(userId, asset));
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
