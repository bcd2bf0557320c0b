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
