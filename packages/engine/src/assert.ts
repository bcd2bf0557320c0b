// TigerBeetle-style assertions: a broken invariant or a caller bug stops the engine loudly
// instead of letting a corrupt book keep trading. Messages are constant strings so a passing
// assertion costs one branch and no allocation.

export class EngineAssertionError extends Error {
  override readonly name = 'EngineAssertionError';
}

export function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new EngineAssertionError(message);
}

export function isSafePositive(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}

export function isSafeNonNegative(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}
