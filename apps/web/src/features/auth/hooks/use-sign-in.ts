import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { clearInviteCode, readInviteCode, storeInviteCode } from '../../../lib/invite-code.ts';
import { notify } from '../../../lib/notify.ts';
import { session } from '../../../lib/session.ts';
import { loadWallet } from '../../../lib/wallet/load-wallet.ts';
import { walletMessageKey, type WalletMessageKey } from '../../../lib/wallet/wallet-errors.ts';
import type { WalletClient, WalletOption } from '../../../lib/wallet/wallet-types.ts';
import { getLoginMessage } from '../api/get-login-message.ts';
import { isRegistered } from '../api/is-register.ts';
import { login } from '../api/login.ts';
import { runSignIn, type SignedMessage, type SignInDeps, type SignInOutcome, type SignInStep } from '../sign-in-flow.ts';

export type SheetView =
  | { name: 'choose'; errorKey: WalletMessageKey | null }
  | { name: 'demo' }
  | { name: 'connecting'; walletName: string }
  | { name: 'step'; step: SignInStep }
  | { name: 'invite'; isRefused: boolean; signed: SignedMessage | null; refusedCode?: string }
  | { name: 'canceled' }
  | { name: 'failed'; messageKey: WalletMessageKey }
  | { name: 'invalid' }
  | { name: 'error'; message: string };

function flowDeps(wallet: WalletClient, onStep: (step: SignInStep) => void): SignInDeps {
  return {
    isRegistered,
    getMessage: async (address) => (await getLoginMessage(address)).message,
    sign: (address, message) => wallet.signMessage(address, message),
    login,
    readInviteCode,
    storeInviteCode,
    clearInviteCode,
    startSession: (data, address) => session.start({ token: data.token, walletAddress: address, expiresInMs: data.expires_in_ms }),
    onStep,
  };
}

function viewFor(outcome: SignInOutcome): SheetView | null {
  switch (outcome.kind) {
    case 'signed-in':
      return null;
    case 'need-invite':
      return { name: 'invite', isRefused: outcome.isRefused, signed: outcome.signed, ...(outcome.refusedCode ? { refusedCode: outcome.refusedCode } : {}) };
    case 'canceled':
      return { name: 'canceled' };
    case 'failed':
      return { name: 'failed', messageKey: outcome.messageKey };
    case 'invalid':
      return { name: 'invalid' };
    case 'error':
      return { name: 'error', message: outcome.message };
  }
}

/** Loads the wallet module once the sheet opens; `isActiveRef` turns false when it closes. */
function useWalletClient(onReady: (client: WalletClient) => void) {
  const [wallet, setWallet] = useState<WalletClient | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const isActiveRef = useRef(true);
  const onLoaded = useEffectEvent((client: WalletClient) => {
    setWallet(client);
    onReady(client);
  });

  useEffect(() => {
    isActiveRef.current = true;
    loadWallet().then(
      (client) => isActiveRef.current && onLoaded(client),
      (error: unknown) => isActiveRef.current && setLoadError(error),
    );
    return () => {
      isActiveRef.current = false;
    };
  }, []);

  /** The retry button after a failed load. */
  function reload() {
    setLoadError(null);
    loadWallet().then(
      (client) => {
        if (!isActiveRef.current) return;
        setWallet(client);
        onReady(client);
      },
      (error: unknown) => isActiveRef.current && setLoadError(error),
    );
  }

  return { wallet, loadError, reload, isActiveRef };
}

/** Drives the sheet: wallet loading, connecting, the invite step and the signing states. */
export function useSignIn({ isAccountChange, onSignedIn }: { isAccountChange: boolean; onSignedIn: () => void }) {
  const { t } = useTranslation();
  const [view, setView] = useState<SheetView>(isAccountChange ? { name: 'step', step: 'preparing' } : { name: 'choose', errorKey: null });
  const addressRef = useRef<string | null>(null);
  const { wallet, loadError, reload, isActiveRef } = useWalletClient((client) => {
    if (!isAccountChange) return;
    // After an account switch the wallet is already connected: go straight to the new signature.
    const address = client.currentAddress();
    if (address) void start(client, address);
    else setView({ name: 'choose', errorKey: null });
  });

  async function start(client: WalletClient, address: string, typedCode: string | null = null, signed: SignedMessage | null = null) {
    addressRef.current = address;
    const deps = flowDeps(client, (step) => isActiveRef.current && setView({ name: 'step', step }));
    const outcome = await runSignIn(deps, { address, typedCode, signed }).catch(
      (error: unknown): SignInOutcome => ({ kind: 'error', message: isApiError(error) ? error.displayMessage : t('api.failed') }),
    );
    if (!isActiveRef.current) return;
    const next = viewFor(outcome);
    if (next) setView(next);
    else onSignedIn();
  }

  async function connectWith(option: WalletOption, walletName: string) {
    if (!wallet) return;
    setView({ name: 'connecting', walletName });
    let address: string;
    try {
      address = await wallet.connect(option.id);
    } catch (error) {
      const key = walletMessageKey(error, 'connect');
      notify(t(key), 'fail');
      if (isActiveRef.current) setView({ name: 'choose', errorKey: key });
      return;
    }
    await start(wallet, address);
  }

  function retrySign() {
    const address = wallet?.currentAddress() ?? addressRef.current;
    if (wallet && address) void start(wallet, address);
    else setView({ name: 'choose', errorKey: null });
  }

  function submitInvite(code: string, signed: SignedMessage | null) {
    if (wallet && addressRef.current) void start(wallet, addressRef.current, code, signed);
  }

  return { wallet, loadError, reload, view, setView, connectWith, retrySign, submitInvite };
}
