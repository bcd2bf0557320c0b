import { describe, expect, it } from 'vitest';
import { binanceDeepLink, okxDeepLink, walletAppLinks } from './deep-links.ts';

// A page with a path, a query (an invite link) and characters that must be encoded exactly once.
const page = 'https://nadi.example/user?code=AB12CD34&x=a b';
const pageEncoded = 'https%3A%2F%2Fnadi.example%2Fuser%3Fcode%3DAB12CD34%26x%3Da%20b';

function hrefOf(id: string, url = page): string {
  const link = walletAppLinks(url).find((item) => item.id === id);
  if (!link) throw new Error(`no link for ${id}`);
  return link.href;
}

function fromBase64(text: string): string {
  return new TextDecoder().decode(Uint8Array.from(atob(text), (char) => char.charCodeAt(0)));
}

describe('walletAppLinks', () => {
  it('lists the five wallet apps in order, by their own names', () => {
    expect(walletAppLinks(page).map((link) => [link.id, link.name])).toEqual([
      ['metamask', 'MetaMask'],
      ['trust', 'Trust Wallet'],
      ['okx', 'OKX Wallet'],
      ['tokenpocket', 'TokenPocket'],
      ['binance', 'Binance Web3 Wallet'],
    ]);
  });

  it('MetaMask: host, path and query without the scheme, not encoded', () => {
    expect(hrefOf('metamask', 'https://nadi.example/user?code=AB12CD34#top')).toBe('https://link.metamask.io/dapp/nadi.example/user?code=AB12CD34#top');
    expect(hrefOf('metamask', 'http://127.0.0.1:5173/')).toBe('https://link.metamask.io/dapp/127.0.0.1:5173/');
  });

  it('Trust Wallet: the DApp browser on BNB Smart Chain, the URL encoded once', () => {
    expect(hrefOf('trust')).toBe(`https://link.trustwallet.com/open_url?coin_id=20000714&url=${pageEncoded}`);
    expect(new URL(hrefOf('trust')).searchParams.get('url')).toBe(page);
  });

  it('OKX Wallet: the universal link carries the deep link, which carries the URL encoded once', () => {
    expect(okxDeepLink(page)).toBe(`okx://wallet/dapp/url?dappUrl=${pageEncoded}`);
    expect(hrefOf('okx')).toBe(`https://web3.okx.com/download?deeplink=${encodeURIComponent(`okx://wallet/dapp/url?dappUrl=${pageEncoded}`)}`);
    const deepLink = new URL(hrefOf('okx')).searchParams.get('deeplink') ?? '';
    expect(deepLink).toBe(okxDeepLink(page));
    expect(new URL(deepLink).searchParams.get('dappUrl')).toBe(page);
  });

  it('TokenPocket: the JSON parameters encoded once', () => {
    const json = `{"url":"${page}","chain":"BSC","source":"NADI"}`;
    expect(hrefOf('tokenpocket')).toBe(`tpdapp://open?params=${encodeURIComponent(json)}`);
    const params = new URL(hrefOf('tokenpocket')).searchParams.get('params') ?? '';
    expect(JSON.parse(params)).toEqual({ url: page, chain: 'BSC', source: 'NADI' });
  });

  it("Binance: the browser mini program with the page in its base64 query, in Binance's universal link", () => {
    const deepLink = binanceDeepLink(page);
    expect(deepLink).toBe(
      `bnc://app.binance.com/mp/app?appId=yFK5FCqYprrXDiVFbhyRx7&startPagePath=${btoa('/pages/browser/index')}&startPageQuery=${btoa(`url=${page}&defaultChainId=56`)}`,
    );
    expect(hrefOf('binance')).toBe(`https://app.binance.com/en/download?_dp=${btoa(deepLink)}`);
    const query = /startPageQuery=([^&]+)/.exec(deepLink)?.[1] ?? '';
    expect(fromBase64(query)).toBe(`url=${page}&defaultChainId=56`);
  });

  it('Binance: a URL beyond Latin-1 is base64 of its UTF-8 bytes, not an exception', () => {
    const query = /startPageQuery=([^&]+)/.exec(binanceDeepLink('https://nadi.example/ü'))?.[1] ?? '';
    expect(fromBase64(query)).toBe('url=https://nadi.example/ü&defaultChainId=56');
  });
});
