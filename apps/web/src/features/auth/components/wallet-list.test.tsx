import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { walletAppLinks } from '../../../lib/wallet/deep-links.ts';
import type { WalletClient, WalletOption } from '../../../lib/wallet/wallet-types.ts';
import { WalletList } from './wallet-list.tsx';

// Which options the sheet shows for which wallets (the browser test covers the no-wallet phone and
// two announced wallets on the real stack, which has no WalletConnect project id).

// react-i18next resolves another copy of React than react-dom does here; the keys stand for the texts.
vi.mock('../../../lib/translator.ts', () => ({ useTranslation: () => ({ t: (key: string) => key }) }));

const pageUrl = 'https://nadi.example/?code=AB12CD34';

function clientWith(options: WalletOption[]): WalletClient {
  return { options: () => options, onOptionsChange: () => () => {} } as unknown as WalletClient;
}

function render(options: WalletOption[]): string {
  return renderToStaticMarkup(<WalletList wallet={clientWith(options)} errorKey={null} onChoose={() => {}} />);
}

const walletConnect: WalletOption = { id: 'walletConnect', name: 'WalletConnect', icon: null, kind: 'walletconnect' };
const announced: WalletOption = { id: 'dev.nadi.alpha', name: 'Alpha Wallet', icon: 'data:image/svg+xml,<svg/>', kind: 'injected' };

beforeEach(() => {
  vi.stubGlobal('window', { location: { href: pageUrl } });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('WalletList', () => {
  it('without an injected wallet: the five wallet apps as links to this page, WalletConnect after them', () => {
    const html = render([walletConnect]);
    for (const link of walletAppLinks(pageUrl)) expect(html).toContain(`href="${link.href.replaceAll('&', '&amp;')}"`);
    expect(html).toContain('wallet.apps.title');
    expect(html.indexOf('wallet.apps.other')).toBeGreaterThan(html.indexOf('wallet.apps.binance'));
    expect(html.indexOf('wallet.walletConnectHint')).toBeGreaterThan(html.indexOf('wallet.apps.other'));
  });

  it('without an injected wallet and without WalletConnect: only the wallet apps', () => {
    const html = render([]);
    expect(html.match(/<a /g)).toHaveLength(5);
    expect(html).not.toContain('wallet.apps.other');
    expect(html).not.toContain('wallet.walletConnect');
  });

  it('with an announced wallet: it by name and icon, no deep links', () => {
    const html = render([announced, walletConnect]);
    expect(html).toContain('Alpha Wallet');
    expect(html).toContain('src="data:image/svg+xml,&lt;svg/&gt;"');
    expect(html).toContain('wallet.detected');
    expect(html).not.toContain('<a ');
    expect(html).not.toContain('wallet.apps.title');
    expect(html).toContain('wallet.walletConnectHint');
  });
});
