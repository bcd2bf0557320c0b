import type { FastifyInstance, FastifyRequest } from 'fastify';
import { idempotencyHeader } from '@nadi/api/common';
import { walletRoutes } from '@nadi/api/wallet';
import { AppError } from '../../lib/app-error.ts';
import { registerRoute } from '../../lib/register-route.ts';
import { incomeList, moneyLog, transferList } from './records.ts';
import { confirmQuote, createQuote, getAssets, transferBetweenAccounts } from './service.ts';
import { randomUUID } from 'node:crypto';
import { accountSocketPath } from '@nadi/api/trade-socket';
import type { SocketLike } from '../../lib/socket.ts';
import { authenticate } from '../auth/service.ts';
import type { SocketQuery } from '../market/ws-routes.ts';
import { AccountSockets, accountSocketLimits, type AccountSocketLimits } from './account-socket.ts';

const idempotencyKeyPattern = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The ledger key of a money-moving request: the client's Idempotency-Key scoped to the user and
 * the action, so two users (or two actions) can never collide; without a header every request is new.
 */
export function idempotencyKeyOf(request: FastifyRequest, userId: number, action: string): string {
  const header = request.headers[idempotencyHeader];
  if (header === undefined) return `${action}:${userId}:auto:${randomUUID()}`;
  if (typeof header !== 'string' || !idempotencyKeyPattern.test(header)) throw new AppError('IDEMPOTENCY_KEY_INVALID');
  return `${action}:${userId}:${header}`;
}

export interface WalletModuleOptions {
  accountSocket?: Partial<AccountSocketLimits>;
}

export async function walletModule(app: FastifyInstance, options: WalletModuleOptions) {
  const { deps } = app;
  const balanceChanged = (userId: number) => deps.events.publish({ type: 'balance', userIds: [userId] });
  registerRoute(app, walletRoutes.assets, async ({ session }) => getAssets(deps, session.userId));
  registerRoute(app, walletRoutes.transfer, async ({ session, input, request }) => {
    const data = await transferBetweenAccounts(deps, session.userId, idempotencyKeyOf(request, session.userId, 'transfer'), input);
    balanceChanged(session.userId);
    return data;
  });
  registerRoute(app, walletRoutes.transferList, async ({ session, input }) => transferList(deps.db, session.userId, input));
  registerRoute(app, walletRoutes.exchangeQuote, async ({ session, input }) => createQuote(deps, session.userId, input));
  registerRoute(app, walletRoutes.exchangeConfirm, async ({ session, input, request }) => {
    const data = await confirmQuote(deps, session.userId, idempotencyKeyOf(request, session.userId, 'exchange'), input);
    balanceChanged(session.userId);
    return data;
  });
  registerRoute(app, walletRoutes.moneyLog, async ({ session, input }) => moneyLog(deps.db, session.userId, input));
  registerAccountSocket(app, { ...accountSocketLimits, ...options.accountSocket });
  registerRoute(app, walletRoutes.incomeList, async ({ session, input }) => incomeList(deps.db, session.userId, input));
}

/** `/ws`: the signed-in user's balances and notices; the token (`?token=`) is checked before the upgrade. */
function registerAccountSocket(app: FastifyInstance, limits: AccountSocketLimits) {
  const sockets = new AccountSockets(app.deps, limits);
  app.addHook('onClose', async () => sockets.close());
  app.get(
    accountSocketPath,
    {
      websocket: true,
      preValidation: async (request) => {
        const token = (request.query as SocketQuery).token;
        request.session = await authenticate(app.deps, typeof token === 'string' ? token : undefined);
      },
    },
    (socket: SocketLike, request) => {
      if (request.session) sockets.connect(socket, request.session.userId);
      else socket.close(1008, 'unauthorized');
    },
  );
}
