import type { FastifyInstance, FastifyRequest } from 'fastify';
import { idempotencyHeader } from '@nadi/api/common';
import { walletRoutes } from '@nadi/api/wallet';
import { AppError } from '../../lib/app-error.ts';
import { registerRoute } from '../../lib/register-route.ts';
import { incomeList, moneyLog, transferList } from './records.ts';
import { confirmQuote, createQuote, getAssets, transferBetweenAccounts } from './service.ts';
import { randomUUID } from 'node:crypto';

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

export async function walletModule(app: FastifyInstance) {
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
  registerRoute(app, walletRoutes.incomeList, async ({ session, input }) => incomeList(deps.db, session.userId, input));
}
