import type { FastifyInstance } from 'fastify';
import { walletRoutes } from '@nadi/api/wallet';
import { idempotencyKeyOf } from '../../lib/idempotency-key.ts';
import { registerRoute } from '../../lib/register-route.ts';
import { incomeList, moneyLog, transferList } from './records.ts';
import { confirmQuote, createQuote, getAssets, transferBetweenAccounts } from './service.ts';
import { accountSocketPath } from '@nadi/api/trade-socket';
import type { SocketLike, SocketQuery } from '../../lib/socket.ts';
import { authenticate } from '../auth/index.ts';
import { AccountSockets, accountSocketLimits, type AccountSocketLimits } from './account-socket.ts';

export interface WalletModuleOptions {
  accountSocket?: Partial<AccountSocketLimits>;
}

export async function walletModule(app: FastifyInstance, options: WalletModuleOptions) {
  const { deps } = app;
  registerRoute(app, walletRoutes.assets, async ({ session }) => getAssets(deps, session.userId));
  registerRoute(app, walletRoutes.transfer, async ({ session, input, request }) =>
    transferBetweenAccounts(deps, session.userId, idempotencyKeyOf(request, session.userId, 'transfer'), input),
  );
  registerRoute(app, walletRoutes.transferList, async ({ session, input }) => transferList(deps.db, session.userId, input));
  registerRoute(app, walletRoutes.exchangeQuote, async ({ session, input }) => createQuote(deps, session.userId, input));
  registerRoute(app, walletRoutes.exchangeConfirm, async ({ session, input, request }) =>
    confirmQuote(deps, session.userId, idempotencyKeyOf(request, session.userId, 'exchange'), input),
  );
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
      if (request.session) sockets.connect(socket, request.session);
      else socket.close(1008, 'unauthorized');
    },
  );
}
