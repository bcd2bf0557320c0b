// EIP-1193 and JSON-RPC error codes turned into the wallet messages of docs/product.md section 8. Wallets
// and wagmi wrap errors several levels deep, so the code is searched along the `cause` chain.

export type WalletPhase = 'connect' | 'sign';

export type WalletMessageKey =
  | 'wallet.installMetaMask'
  | 'wallet.connectFailed'
  | 'wallet.connectRejected'
  | 'wallet.signCanceled'
  | 'wallet.paramsError'
  | 'wallet.internalError'
  | 'wallet.signFailed';

/** EIP-1193: the user rejected the request. */
export const userRejectedCode = 4001;
/** JSON-RPC: invalid method parameters. */
export const invalidParamsCode = -32602;
/** JSON-RPC: internal error. */
export const internalErrorCode = -32603;

const noProviderNames = new Set(['ProviderNotFoundError', 'ConnectorNotFoundError']);
/** Wrapped errors never nest deeply; the bound stops a cyclic `cause` from looping forever. */
const causeDepthMax = 8;

/** The error and its causes, outermost first. */
export function* causes(error: unknown): Generator<Record<string, unknown>> {
  let current = error;
  for (let depth = 0; depth < causeDepthMax && typeof current === 'object' && current !== null; depth += 1) {
    yield current as Record<string, unknown>;
    current = (current as { cause?: unknown }).cause;
  }
}

export function walletErrorCode(error: unknown): number | null {
  for (const item of causes(error)) {
    if (typeof item.code === 'number') return item.code;
  }
  return null;
}

export function isNoProviderError(error: unknown): boolean {
  for (const item of causes(error)) {
    if (typeof item.name === 'string' && noProviderNames.has(item.name)) return true;
  }
  return false;
}

export function isUserRejection(error: unknown): boolean {
  return walletErrorCode(error) === userRejectedCode;
}

export function walletMessageKey(error: unknown, phase: WalletPhase): WalletMessageKey {
  if (isNoProviderError(error)) return 'wallet.installMetaMask';
  const code = walletErrorCode(error);
  if (code === userRejectedCode) return phase === 'connect' ? 'wallet.connectRejected' : 'wallet.signCanceled';
  if (code === invalidParamsCode) return 'wallet.paramsError';
  if (code === internalErrorCode) return 'wallet.internalError';
  return phase === 'connect' ? 'wallet.connectFailed' : 'wallet.signFailed';
}

/**
 * A personal_sign result: 0x and an even number of hex digits, at least a compact 64-byte
 * signature. Smart-contract wallets return longer (ERC-1271/6492) ones, so there is no upper bound
 * beyond the contract's own limit.
 */
export function isWellFormedSignature(value: unknown): value is `0x${string}` {
  return typeof value === 'string' && /^0x(?:[0-9a-fA-F]{2}){64,10000}$/.test(value);
}
