import type { NavEntry } from './feature.ts';

// What only the router knows (is the current screen behind a session? how to go home?), handed
// to shared code that runs outside React: the API client and the wallet account watcher.

export interface AppNavigation {
  isOnAuthRoute: () => boolean;
  goHome: () => void;
}

let navigation: AppNavigation = {
  isOnAuthRoute: () => false,
  goHome: () => globalThis.location.assign('/'),
};

export function setAppNavigation(next: AppNavigation): void {
  navigation = next;
}

export function isOnAuthRoute(): boolean {
  return navigation.isOnAuthRoute();
}

export function goHome(): void {
  navigation.goHome();
}

// The home screen's quick-entry grid shows entries of many features (notices, nodes, savings,
// deposits…). Features never import each other, so the app composes every feature's
// `quickEntries` and hands the list here for home to read, as it does the wallet's actions.
let quickEntryList: readonly NavEntry[] = [];

export function setQuickEntries(next: readonly NavEntry[]): void {
  quickEntryList = next;
}

/** Every feature's quick entries, in their `order`. */
export function quickEntries(): readonly NavEntry[] {
  return quickEntryList;
}
