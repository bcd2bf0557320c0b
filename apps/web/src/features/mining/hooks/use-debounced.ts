import { useEffect, useState } from 'react';

/** `value` once it has stopped changing for `delayMs`: a preview is asked for what the user typed, not every key. */
export function useDebounced<T>(value: T, delayMs = 350): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
