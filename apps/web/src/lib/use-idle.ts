import { useEffect, useState } from 'react';
import { whenLoadedAndIdle } from './when-idle.ts';

/**
 * False until the page has loaded and the browser is idle after the first paint: for a part of a
 * screen that costs a lot of script and is not its main content (the trade chart), so it is drawn
 * after the first paint rather than competing with it (issue 33).
 */
export function useIdle(schedule: (run: () => void) => void = whenLoadedAndIdle): boolean {
  const [isIdle, setIsIdle] = useState(false);
  useEffect(() => {
    let isActive = true;
    schedule(() => {
      if (isActive) setIsIdle(true);
    });
    return () => {
      isActive = false;
    };
  }, [schedule]);
  return isIdle;
}
