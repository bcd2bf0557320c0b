import { beforeEach, describe, expect, it } from 'vitest';
import { nodeQuoteData, type NodeQuote } from '@nadi/api/node';
import { ApiError, classifyFailure } from '../../lib/api-client.ts';
import { installMemoryStorage } from '../../lib/testing/memory-storage.ts';
import { buyRequest, classifyBuyRefusal, isQuoteFor, nextPayChoice, payAssetOptions, quoteFacts, topUpPath, type PurchaseChoice } from './purchase.ts';
import { attemptFor, isAttemptOverAfterPayment, isResumable, readAttempt, saveAttempt, settleAttempt, submissionOf } from './purchase-attempt.ts';

const balanceChoice: PurchaseChoice = { tier_id: 2, pay_method: 'balance', pay_asset: 'NADI' };

const nadiQuote: NodeQuote = nodeQuoteData.parse({
  tier_id: 2,
  price_usdt: '500',
  pay_method: 'balance',
  pay_asset: 'NADI',
  pay_amount: '1600',
  price: '0.3125',
  price_source: 'market',
  available: '1599.999999999999999999',
});

const creditQuote: NodeQuote = nodeQuoteData.parse({
  tier_id: 2,
  price_usdt: '500',
  pay_method: 'credit',
  pay_asset: 'USDT',
  pay_amount: '500',
  price: null,
  price_source: null,
  available: '500',
});

function refusal(status: number, body: Record<string, unknown>): ApiError {
  return new ApiError(classifyFailure(status, { code: status, msg: 'refused', data: null, ...body }), 'refused');
}
const noAnswer = new ApiError(classifyFailure(null, null), 'no answer');

describe('pay methods and assets', () => {
  it('pays the fund account in NADI, the destroy quota in USDT, the wallet in either', () => {
    expect(payAssetOptions('balance')).toEqual(['NADI']);
    expect(payAssetOptions('credit')).toEqual(['USDT']);
    expect(payAssetOptions('chain')).toEqual(['USDT', 'NADI']);
  });

  it('starts another method from its first asset: the wallet pays USDT unless NADI is chosen', () => {
    expect(nextPayChoice({ method: 'balance', asset: 'NADI' }, 'chain', 'NADI')).toEqual({ method: 'chain', asset: 'USDT' });
    expect(nextPayChoice({ method: 'chain', asset: 'USDT' }, 'chain', 'NADI')).toEqual({ method: 'chain', asset: 'NADI' });
    expect(nextPayChoice({ method: 'chain', asset: 'NADI' }, 'credit', 'NADI')).toEqual({ method: 'credit', asset: 'USDT' });
    expect(nextPayChoice({ method: 'credit', asset: 'USDT' }, 'balance', 'USDT')).toEqual({ method: 'balance', asset: 'NADI' });
  });

  it('never pairs a method with an asset it does not take', () => {
    expect(nextPayChoice({ method: 'balance', asset: 'NADI' }, 'balance', 'USDT')).toEqual({ method: 'balance', asset: 'NADI' });
  });
});

describe('quoteFacts and isQuoteFor', () => {
  it('sees a balance one unit short as short, and enough as enough', () => {
    expect(quoteFacts(nadiQuote)).toEqual({ isShort: true, isPriced: true });
    expect(quoteFacts(creditQuote)).toEqual({ isShort: false, isPriced: false });
  });

  it('never calls a wallet payment short: there is no account to compare', () => {
    expect(quoteFacts({ ...nadiQuote, pay_method: 'chain', available: null }).isShort).toBe(false);
  });

  it('tells a quote of another choice from the one on screen', () => {
    expect(isQuoteFor(nadiQuote, balanceChoice)).toBe(true);
    expect(isQuoteFor(creditQuote, balanceChoice)).toBe(false);
    expect(isQuoteFor(nadiQuote, { ...balanceChoice, tier_id: 3 })).toBe(false);
  });
});

describe('buyRequest', () => {
  it('names the quote’s price for a NADI amount, so a moved price is refused instead of charged', () => {
    expect(buyRequest(balanceChoice, nadiQuote)).toEqual({ tier_id: 2, pay_method: 'balance', pay_asset: 'NADI', price: '0.3125' });
  });

  it('sends no price for USDT', () => {
    expect(buyRequest({ tier_id: 2, pay_method: 'credit', pay_asset: 'USDT' }, creditQuote)).toEqual({ tier_id: 2, pay_method: 'credit', pay_asset: 'USDT' });
  });
});

describe('classifyBuyRefusal', () => {
  it('shows BALANCE_SHORT with the current and the required amount (docs/product.md section 8)', () => {
    const error = refusal(400, { reason: 'BALANCE_SHORT', params: { current: '12.5', required: '1600', asset: 'NADI' } });
    expect(classifyBuyRefusal(error)).toEqual({ kind: 'balance-short', current: '12.5', required: '1600', asset: 'NADI' });
  });

  it('quotes again after QUOTE_EXPIRED', () => {
    expect(classifyBuyRefusal(refusal(400, { reason: 'QUOTE_EXPIRED' })).kind).toBe('quote-expired');
  });

  it('reads the tier again when it changed under the buyer', () => {
    for (const reason of ['NODE_SOLD_OUT', 'NODE_LIMIT_REACHED', 'NODE_SALE_CLOSED', 'NODE_UNPAID_LIMIT']) {
      expect(classifyBuyRefusal(refusal(400, { reason, params: { max: '1' } })).kind).toBe('tier');
    }
  });

  it('takes a conflict of the attempt’s key as a purchase that went through', () => {
    expect(classifyBuyRefusal(refusal(409, { reason: 'IDEMPOTENCY_CONFLICT' })).kind).toBe('already-bought');
  });

  it('leaves anything else to the toast', () => {
    expect(classifyBuyRefusal(noAnswer).kind).toBe('other');
    expect(classifyBuyRefusal(new Error('boom')).kind).toBe('other');
    // BALANCE_SHORT without its amounts cannot fill the dialog.
    expect(classifyBuyRefusal(refusal(400, { reason: 'BALANCE_SHORT' })).kind).toBe('other');
  });

  it('tops up the fund account from the wallet and the destroy quota by destroying', () => {
    expect(topUpPath('balance')).toBe('/wallet');
    expect(topUpPath('credit')).toBe('/mining/destroy');
  });
});

describe('purchase attempts', () => {
  let keys = 0;
  const newKey = () => `key-${++keys}`;
  beforeEach(() => {
    keys = 0;
    installMemoryStorage();
  });

  it('gives a new choice a new key and keeps the key of the same choice', () => {
    const first = attemptFor(balanceChoice, null, newKey);
    expect(first.request_key).toBe('key-1');
    expect(attemptFor(balanceChoice, first, newKey)).toBe(first);
    expect(attemptFor({ ...balanceChoice, pay_method: 'credit', pay_asset: 'USDT' }, first, newKey).request_key).toBe('key-2');
    expect(attemptFor({ ...balanceChoice, tier_id: 3 }, first, newKey).request_key).toBe('key-3');
  });

  it('sends the same body under the same key after a lost answer, even if the quote moved since', () => {
    const attempt = attemptFor(balanceChoice, null, newKey);
    const sent = buyRequest(balanceChoice, nadiQuote);
    const afterLoss = settleAttempt(attempt, sent, { kind: 'failed', error: noAnswer });
    expect(afterLoss?.sent).toEqual(sent);
    const retry = submissionOf(attemptFor(balanceChoice, afterLoss, newKey), { ...sent, price: '0.33' });
    expect(retry).toEqual({ key: 'key-1', body: sent });
  });

  it('sends the newer quote after a refusal, under the same key (a refusal stored nothing)', () => {
    const attempt = attemptFor(balanceChoice, null, newKey);
    const sent = buyRequest(balanceChoice, nadiQuote);
    const afterRefusal = settleAttempt(attempt, sent, { kind: 'failed', error: refusal(400, { reason: 'QUOTE_EXPIRED' }) });
    const next = { ...sent, price: '0.33' };
    expect(submissionOf(attemptFor(balanceChoice, afterRefusal, newKey), next)).toEqual({ key: 'key-1', body: next });
  });

  it('ends with the node bought, so the next purchase has its own key', () => {
    const attempt = attemptFor(balanceChoice, null, newKey);
    expect(settleAttempt(attempt, buyRequest(balanceChoice, nadiQuote), { kind: 'bought' })).toBeNull();
    expect(attemptFor(balanceChoice, null, newKey).request_key).toBe('key-2');
  });

  it('keeps a wallet order’s body until it is paid, so buying again reopens the same order', () => {
    const choice: PurchaseChoice = { tier_id: 5, pay_method: 'chain', pay_asset: 'USDT' };
    const attempt = attemptFor(choice, null, newKey);
    const body = { tier_id: 5, pay_method: 'chain' as const, pay_asset: 'USDT' as const };
    expect(isResumable(attempt, choice)).toBe(false);
    const waiting = settleAttempt(attempt, body, { kind: 'awaiting-payment' });
    expect(isResumable(waiting, choice)).toBe(true);
    expect(isResumable(waiting, { ...choice, pay_asset: 'NADI' })).toBe(false);
    expect(submissionOf(attemptFor(choice, waiting, newKey), body)).toEqual({ key: 'key-1', body });
  });

  it('ends a wallet attempt once paid or rejected, and keeps it to try the same order again otherwise', () => {
    expect(isAttemptOverAfterPayment({ kind: 'success', txHash: null })).toBe(true);
    expect(isAttemptOverAfterPayment({ kind: 'pending', txHash: null })).toBe(true);
    expect(isAttemptOverAfterPayment({ kind: 'failed', step: 'pay-wait', reason: 'order-rejected' })).toBe(true);
    expect(isAttemptOverAfterPayment({ kind: 'cancelled', step: 'approve' })).toBe(false);
    expect(isAttemptOverAfterPayment({ kind: 'failed', step: 'network', reason: 'wrong-network' })).toBe(false);
    expect(isAttemptOverAfterPayment({ kind: 'insufficient-gas', currentUnits: 0n, requiredUnits: 1n, symbol: 'BNB' })).toBe(false);
  });

  it('survives a refresh in session storage, and forgets what it cannot read', () => {
    const attempt = { ...attemptFor(balanceChoice, null, newKey), sent: buyRequest(balanceChoice, nadiQuote) };
    saveAttempt(attempt);
    expect(readAttempt()).toEqual(attempt);
    saveAttempt(null);
    expect(readAttempt()).toBeNull();
    sessionStorage.setItem('nadi.node.purchase', '{"tier_id":"x"}');
    expect(readAttempt()).toBeNull();
    sessionStorage.setItem('nadi.node.purchase', 'not json');
    expect(readAttempt()).toBeNull();
  });
});
