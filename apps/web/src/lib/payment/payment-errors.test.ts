import { describe, expect, it } from 'vitest';
import {
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  encodeErrorResult,
  erc20Abi,
  HttpRequestError,
  InsufficientFundsError,
  LimitExceededRpcError,
  TransactionExecutionError,
  UserRejectedRequestError,
  type Abi,
} from 'viem';
import { paymentErrorOutcome } from './payment-errors.ts';

// Errors as wagmi and viem throw them (wrapped a level or two deep), turned into the outcomes of
// docs/product.md section 8.

const gateway = '0x2222222222222222222222222222222222222222';
const ozErrors = [
  {
    type: 'error',
    name: 'ERC20InsufficientAllowance',
    inputs: [
      { name: 'spender', type: 'address' },
      { name: 'allowance', type: 'uint256' },
      { name: 'needed', type: 'uint256' },
    ],
  },
  {
    type: 'error',
    name: 'ERC20InsufficientBalance',
    inputs: [
      { name: 'sender', type: 'address' },
      { name: 'balance', type: 'uint256' },
      { name: 'needed', type: 'uint256' },
    ],
  },
] as const satisfies Abi;

function reverted(errorName: 'ERC20InsufficientAllowance' | 'ERC20InsufficientBalance'): Error {
  const data = encodeErrorResult({ abi: ozErrors, errorName, args: [gateway, 1n, 2n] });
  const cause = new ContractFunctionRevertedError({ abi: [...erc20Abi, ...ozErrors], data, functionName: 'transferFrom' });
  return new ContractFunctionExecutionError(cause, { abi: erc20Abi, functionName: 'transferFrom', contractAddress: gateway, args: [] });
}

const outcome = (error: unknown, step: Parameters<typeof paymentErrorOutcome>[1] = 'pay') => paymentErrorOutcome(error, step, 'NADI', 'BNB');

describe('paymentErrorOutcome', () => {
  it('reads a rejection in the wallet as "user cancelled", EIP-1193 code or viem error alike', () => {
    expect(outcome(Object.assign(new Error('User rejected the request.'), { code: 4001 }), 'approve')).toEqual({ kind: 'cancelled', step: 'approve' });
    const viemRejection = new TransactionExecutionError(new UserRejectedRequestError(new Error('denied')), { account: null });
    expect(outcome(viemRejection)).toEqual({ kind: 'cancelled', step: 'pay' });
  });

  it('reads a lack of native coin as insufficient gas', () => {
    const error = new TransactionExecutionError(new InsufficientFundsError(), { account: null });
    expect(outcome(error)).toEqual({ kind: 'insufficient-gas', currentUnits: null, requiredUnits: null, symbol: 'BNB' });
    expect(outcome(new Error('insufficient funds for gas * price + value'))).toMatchObject({ kind: 'insufficient-gas' });
  });

  it('reads the ERC-20 reverts as insufficient authorization and balance', () => {
    expect(outcome(reverted('ERC20InsufficientAllowance'))).toEqual({
      kind: 'insufficient-allowance',
      currentUnits: null,
      requiredUnits: null,
      symbol: 'NADI',
    });
    expect(outcome(reverted('ERC20InsufficientBalance'))).toEqual({ kind: 'insufficient-balance', currentUnits: null, requiredUnits: null, symbol: 'NADI' });
  });

  it('reads rate limits as "request too frequent"', () => {
    expect(outcome(new LimitExceededRpcError(new Error('limit')))).toEqual({ kind: 'failed', step: 'pay', reason: 'rate-limited' });
    expect(outcome(new HttpRequestError({ url: 'https://rpc', status: 429 }))).toEqual({ kind: 'failed', step: 'pay', reason: 'rate-limited' });
  });

  it('asks for a manual switch when the wallet cannot switch networks', () => {
    expect(outcome(Object.assign(new Error('Unrecognized chain ID'), { code: 4902 }), 'network')).toEqual({
      kind: 'failed',
      step: 'network',
      reason: 'wrong-network',
    });
  });

  it('asks to install a wallet when none is there', () => {
    expect(outcome(Object.assign(new Error('Provider not found.'), { name: 'ProviderNotFoundError' }), 'connect')).toEqual({ kind: 'no-wallet' });
  });

  it('calls anything else a failed payment at its step', () => {
    expect(outcome(new Error('boom'), 'pay-wait')).toEqual({ kind: 'failed', step: 'pay-wait', reason: 'error' });
  });
});
