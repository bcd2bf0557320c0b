import type { ErrorReason } from '@nadi/api/errors';

/** An expected failure: carries a reason from the closed list in packages/api. */
export class AppError extends Error {
  override name = 'AppError';
  readonly reason: ErrorReason;

  constructor(reason: ErrorReason, detail?: string, options?: { cause?: unknown }) {
    super(detail ?? reason, options);
    this.reason = reason;
  }
}
