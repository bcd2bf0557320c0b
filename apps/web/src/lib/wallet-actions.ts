import type { NavEntry, WalletTab } from './feature.ts';

// The wallet's assets tab shows the actions of several features (transfer and exchange are the
// wallet's own, recharge and withdraw belong to theirs). Features never import each other, so the
// app composes every feature's `walletActions` and hands the list here for the wallet to read.

let actions: readonly NavEntry[] = [];

export function setWalletActions(next: readonly NavEntry[]): void {
  actions = next;
}

/** Every feature's wallet actions, in their `order`. */
export function walletActions(): readonly NavEntry[] {
  return actions;
}

let tabs: readonly WalletTab[] = [];

/** The wallet tabs other features add (the team tab), handed over by the app like the actions. */
export function setWalletTabs(next: readonly WalletTab[]): void {
  tabs = next;
}

export function walletTabs(): readonly WalletTab[] {
  return tabs;
}
