/** Whether a new version of the app waits to take over, and how to let it (the update prompt). */
export function createUpdateState() {
  let reload: (() => void) | null = null;
  const listeners = new Set<() => void>();
  return {
    /** The reload that activates the waiting version, or null while none waits. */
    getReload: () => reload,
    setWaiting(next: () => void): void {
      reload = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export type UpdateState = ReturnType<typeof createUpdateState>;
