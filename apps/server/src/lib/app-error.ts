import type { ErrorReason } from '@nadi/api/errors';

/** An expected failure: carries a reason from the closed list in packages/api. */
export class AppError extends Error {
  override name = 'AppError';
  readonly reason: ErrorReason;
  /** Values the message names, e.g. {amount: '10'} for "at least {amount} USDT"; sent to the client too. */
  readonly params: Record<string, string> | undefined;

  constructor(reason: ErrorReason, detail?: string, options?: { cause?: unknown; params?: Record<string, string> }) {
    super(detail ?? reason, options);
    this.reason = reason;
    this.params = options?.params;
  }
}
