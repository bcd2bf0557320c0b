// Links that open a page of the app in a wallet app's own (in-app) browser, where the wallet is
// injected and signs in like an extension. A phone's ordinary browser has no wallet; these links
// are how it reaches one without WalletConnect. Pure (no window, no wagmi): the sign-in sheet and
// the browser test both compute the links from the page's URL with it.
//
// Each format is the wallet's own documented one (looked up 28 Nov 2026):
// - MetaMask: https://docs.metamask.io/sdk/guides/use-deeplinks ("Open a dapp inside the in-app
//   browser"): `https://link.metamask.io/dapp/{dappUrl}`, the URL without its scheme and NOT
//   percent-encoded (an encoded `/`, `?` or `#` opens a blank tab). link.metamask.io replaced the
//   older metamask.app.link.
// - Trust Wallet: https://developer.trustwallet.com/developer/develop-for-trust/deeplinking ("DApp
//   Browser"): `https://link.trustwallet.com/open_url?coin_id={slip44}&url={url}`; 20000714 is
//   Trust's id for BNB Smart Chain.
// - OKX Wallet: https://web3.okx.com/build/docs/waas/app-universal-link: the deep link
//   `okx://wallet/dapp/url?dappUrl={encoded url}`, itself encoded into the universal link
//   `https://web3.okx.com/download?deeplink=…` (which offers the download when the app is missing).
// - TokenPocket: https://github.com/TP-Lab/TokenPocket-Protocol ("Call TokenPocket to open url with
//   Dapp browser"): `tpdapp://open?params={encoded JSON {url, chain, source}}`. TokenPocket has no
//   universal link for this; without the app the link does nothing.
// - Binance Web3 Wallet: the construction of `getDeeplink` in @binance/w3w-utils (documented at
//   https://developers.binance.com/docs/binance-w3w/evm-compatible-provider#getdeeplink): the
//   mini-program link `bnc://app.binance.com/mp/app?appId=…&startPagePath=…&startPageQuery=…` with
//   base64 path and query, wrapped in `https://app.binance.com/en/download?_dp={base64 link}`.
//   Binance's change log of 30 Oct 2026 removed `getDeeplink` from its docs and says externally
//   supplied deep links can no longer open the DApp browser: the link opens the Binance app (or its
//   download page), and the user may have to open the page from the app's Web3 Wallet themselves.
//   docs/web.md ("Connecting a wallet") says so too.

export type WalletAppId = 'metamask' | 'trust' | 'okx' | 'tokenpocket' | 'binance';

export interface WalletAppLink {
  id: WalletAppId;
  /** The wallet's own name, never translated. */
  name: string;
  href: string;
}

/** Trust Wallet's coin id for BNB Smart Chain (its SLIP-44 based registry). */
export const trustBscCoinId = 20000714;
/** The Binance app's mini program that hosts the Web3 Wallet's DApp browser (@binance/w3w-utils). */
const binanceBrowserAppId = 'yFK5FCqYprrXDiVFbhyRx7';
const binanceBrowserPath = '/pages/browser/index';
/** BNB Smart Chain, the chain the Binance browser starts on. */
const bscChainId = 56;
/** How the app names itself to TokenPocket (its protocol's `source`). */
const tokenPocketSource = 'NADI';

/** Base64 of a string's UTF-8 bytes (btoa alone refuses characters above U+00FF). */
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function metaMaskLink(pageUrl: string): string {
  const url = new URL(pageUrl);
  return `https://link.metamask.io/dapp/${url.host}${url.pathname}${url.search}${url.hash}`;
}

export function trustWalletLink(pageUrl: string): string {
  return `https://link.trustwallet.com/open_url?coin_id=${trustBscCoinId}&url=${encodeURIComponent(pageUrl)}`;
}

/** The app's own deep link; `okxWalletLink` wraps it in the universal link. */
export function okxDeepLink(pageUrl: string): string {
  return `okx://wallet/dapp/url?dappUrl=${encodeURIComponent(pageUrl)}`;
}

export function okxWalletLink(pageUrl: string): string {
  return `https://web3.okx.com/download?deeplink=${encodeURIComponent(okxDeepLink(pageUrl))}`;
}

export function tokenPocketLink(pageUrl: string): string {
  const params = JSON.stringify({ url: pageUrl, chain: 'BSC', source: tokenPocketSource });
  return `tpdapp://open?params=${encodeURIComponent(params)}`;
}

/** The Binance app's mini-program link; `binanceWalletLink` wraps it in the universal link. */
export function binanceDeepLink(pageUrl: string): string {
  const path = base64(binanceBrowserPath);
  const query = base64(`url=${pageUrl}&defaultChainId=${bscChainId}`);
  return `bnc://app.binance.com/mp/app?appId=${binanceBrowserAppId}&startPagePath=${path}&startPageQuery=${query}`;
}

export function binanceWalletLink(pageUrl: string): string {
  return `https://app.binance.com/en/download?_dp=${base64(binanceDeepLink(pageUrl))}`;
}

/** The five wallet apps in the order the sheet lists them, each with the link that opens `pageUrl`. */
export function walletAppLinks(pageUrl: string): WalletAppLink[] {
  return [
    { id: 'metamask', name: 'MetaMask', href: metaMaskLink(pageUrl) },
    { id: 'trust', name: 'Trust Wallet', href: trustWalletLink(pageUrl) },
    { id: 'okx', name: 'OKX Wallet', href: okxWalletLink(pageUrl) },
    { id: 'tokenpocket', name: 'TokenPocket', href: tokenPocketLink(pageUrl) },
    { id: 'binance', name: 'Binance Web3 Wallet', href: binanceWalletLink(pageUrl) },
  ];
}
