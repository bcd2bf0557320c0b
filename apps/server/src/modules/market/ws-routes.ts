import type { FastifyInstance, FastifyRequest } from 'fastify';
import { langHeader, parseLang } from '@nadi/api/common';
import { tradeSocketPath } from '@nadi/api/trade-socket';
import { closeCodes, type SocketLike, type SocketQuery } from '../../lib/socket.ts';
import { authenticate } from '../auth/index.ts';
import { TradeConnection, type TradeSocketLimits } from './trade-socket.ts';
import type { TradeStreams } from './trade-streams.ts';

/** The language of a socket's messages: `?lang=`, else the upgrade request's `lang` header, else TW. */
export function socketLang(request: FastifyRequest) {
  const query = request.query as SocketQuery;
  return parseLang(typeof query.lang === 'string' ? query.lang : request.headers[langHeader]);
}

/** `/ws/trade`: public streams for anyone; `?token=` (a session token) for `user@update_order`. */
export function registerTradeSocket(app: FastifyInstance, streams: TradeStreams, limits: TradeSocketLimits) {
  app.get(tradeSocketPath, { websocket: true }, (socket: SocketLike, request: FastifyRequest) => {
    const token = (request.query as SocketQuery).token;
    // A private stream's session: when it ends (logout, an operator's revoke, on any instance), the
    // socket closes, so a stolen token stops hearing the user's orders. Watched only once a private
    // stream asked for the session, so public-only sockets cost the event bus nothing.
    let stopWatching: (() => void) | null = null;
    const watchSession = (sessionId: number) => {
      stopWatching?.();
      stopWatching = app.deps.events.subscribe((e) => {
        if (e.type === 'session_revoked' && e.sessionId === sessionId) socket.close(closeCodes.policyViolation, 'session ended');
      });
    };
    socket.on('close', () => stopWatching?.());
    new TradeConnection(socket, {
      streams,
      limits,
      lang: socketLang(request),
      nowMs: () => app.deps.now().getTime(),
      authenticate: async () => {
        if (typeof token !== 'string' || token === '') return null;
        try {
          const session = await authenticate(app.deps, token);
          watchSession(session.sessionId);
          return session.userId;
        } catch {
          return null;
        }
      },
    });
  });
}
