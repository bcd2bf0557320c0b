// Whether the phone can reach the server. Two sources: the browser's online/offline state, which
// knows when the radio is off but not when the network goes nowhere, and the API calls themselves
// (a fetch that threw, or any HTTP answer). When the calls fail while the browser thinks it is
// online, the server is asked again now and then (a probe) so the app notices by itself when it
// comes back; when the browser says offline, its "online" event is waited for instead.

/** The first probe after the calls stopped reaching the server; each failed probe doubles the wait. */
export const probeDelayMinMs = 3_000;
export const probeDelayMaxMs = 30_000;

export interface ConnectionDeps {
  isBrowserOnline: () => boolean;
  /** One small request to the server: true when anything answered. */
  probe: () => Promise<boolean>;
  /** Runs `run` after `delayMs`; returns a function that cancels it. */
  setTimer: (run: () => void, delayMs: number) => () => void;
}

export type ConnectionListener = (isOnline: boolean) => void;

export function createConnection(deps: ConnectionDeps) {
  let isOnline = deps.isBrowserOnline();
  let cancelProbe: (() => void) | null = null;
  let probeDelayMs = probeDelayMinMs;
  const listeners = new Set<ConnectionListener>();

  function stopProbing(): void {
    cancelProbe?.();
    cancelProbe = null;
    probeDelayMs = probeDelayMinMs;
  }

  function set(next: boolean): void {
    if (next) stopProbing();
    if (next === isOnline) return;
    isOnline = next;
    for (const listener of listeners) listener(next);
  }

  function scheduleProbe(): void {
    if (cancelProbe || !deps.isBrowserOnline()) return;
    cancelProbe = deps.setTimer(() => {
      void deps.probe().then((isReachable) => {
        cancelProbe = null;
        if (isOnline) return;
        if (isReachable) return set(true);
        probeDelayMs = Math.min(probeDelayMaxMs, probeDelayMs * 2);
        scheduleProbe();
      });
    }, probeDelayMs);
  }

  return {
    isOnline: () => isOnline,
    subscribe(listener: ConnectionListener): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** The browser's `online` / `offline` event. */
    browserChanged(isBrowserOnline: boolean): void {
      if (!isBrowserOnline) stopProbing();
      set(isBrowserOnline);
    },
    /** What one API call saw: an answer (any status) or none. */
    report(isReachable: boolean): void {
      set(isReachable);
      if (!isReachable) scheduleProbe();
    },
  };
}

export type Connection = ReturnType<typeof createConnection>;

/**
 * A fetch that reports to `connection` what it saw. A request its caller or the API client's
 * timeout aborted says nothing about the network (a timeout is a slow server, not no server).
 */
export function reportingFetch(connection: Connection, fetchImpl: (url: string, init: RequestInit) => Promise<Response>) {
  return async (url: string, init: RequestInit): Promise<Response> => {
    try {
      const response = await fetchImpl(url, init);
      connection.report(true);
      return response;
    } catch (error) {
      if (!init.signal?.aborted) connection.report(false);
      throw error;
    }
  };
}
