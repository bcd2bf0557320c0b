import { useSyncExternalStore } from 'react';
import { deferredSocket } from '@nadi/envelope/deferred-socket';
import { socketUrlFor } from '../api-client.ts';
import { session } from '../session.ts';
import { SocketManager, type SocketLike, type SocketState } from './socket-manager.ts';

/** `/ws/trade` on the page's host; the session token, when there is one, for the private streams. */
export function tradeSocketUrl(location: { protocol: string; host: string }, token: string | null): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  return `${scheme}://${location.host}/ws/trade${query}`;
}

let shared: SocketManager | null = null;

/** The app's one trade socket, created on first use (the home route never loads this module). */
export function tradeSocket(): SocketManager {
  shared ??= new SocketManager({
    url: () => tradeSocketUrl(window.location, session.getToken()),
    // The token, when there is one, travels sealed when the envelope is on (docs/envelope.md).
    createSocket: (url) => deferredSocket(socketUrlFor(url), (ready) => new WebSocket(ready) as unknown as SocketLike),
  });
  return shared;
}

export function useTradeSocketState(): SocketState {
  const manager = tradeSocket();
  return useSyncExternalStore(manager.subscribeState, manager.getState);
}
