import type { FastifyInstance, FastifyRequest } from 'fastify';
import { langHeader, parseLang } from '@nadi/api/common';
import { tradeSocketPath } from '@nadi/api/trade-socket';
import type { SocketLike, SocketQuery } from '../../lib/socket.ts';
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
    new TradeConnection(socket, {
      streams,
      limits,
      lang: socketLang(request),
      nowMs: () => app.deps.now().getTime(),
      authenticate: async () => {
        if (typeof token !== 'string' || token === '') return null;
        try {
          return (await authenticate(app.deps, token)).userId;
        } catch {
          return null;
        }
      },
    });
  });
}
