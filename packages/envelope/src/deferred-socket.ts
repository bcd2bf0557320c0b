// Kept apart from the sealing code (no HPKE import): the phone's socket runtimes load it up front.

/** The part of the browser's WebSocket the app's socket managers use. */
export interface SocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

/**
 * A socket whose URL is known only later (sealing is asynchronous), for managers that create
 * sockets synchronously: it opens the real one when the URL is ready and forwards its events.
 * Closed before then, it never opens and reports the close; a URL that fails reports an error and
 * a close (1006), so the manager reconnects as after any failed connection.
 */
export function deferredSocket(url: Promise<string>, create: (url: string) => SocketLike): SocketLike {
  let real: SocketLike | null = null;
  let closed: { code?: number; reason?: string } | null = null;
  const proxy: SocketLike = {
    onopen: null,
    onmessage: null,
    onclose: null,
    onerror: null,
    send(data) {
      real?.send(data);
    },
    close(code, reason) {
      if (real) return real.close(code, reason);
      if (closed) return;
      closed = { ...(code === undefined ? {} : { code }), ...(reason === undefined ? {} : { reason }) };
      queueMicrotask(() => proxy.onclose?.({ code: code ?? 1000 }));
    },
  };
  url.then(
    (ready) => {
      if (closed) return;
      const socket = create(ready);
      real = socket;
      socket.onopen = (event) => proxy.onopen?.(event);
      socket.onmessage = (event) => proxy.onmessage?.(event);
      socket.onclose = (event) => proxy.onclose?.(event);
      socket.onerror = (event) => proxy.onerror?.(event);
    },
    (error: unknown) => {
      if (closed) return;
      closed = {};
      proxy.onerror?.(error);
      proxy.onclose?.({ code: 1006 });
    },
  );
  return proxy;
}
