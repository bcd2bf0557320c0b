import type { FastifyInstance } from 'fastify';
import { onchainRoutes } from '@nadi/api/onchain';
import { idempotencyKeyOf } from '../../../lib/idempotency-key.ts';
import { registerRoute } from '../../../lib/register-route.ts';
import { applyWithdrawal, approveWithdrawal, operatorWithdrawals, rejectWithdrawal, userWithdrawals, withdrawConfig } from './service.ts';

export async function withdrawModule(app: FastifyInstance) {
  const { deps } = app;
  registerRoute(app, onchainRoutes.withdrawConfig, async ({ session }) => withdrawConfig(deps, session));
  registerRoute(app, onchainRoutes.withdrawApply, async ({ session, input, request }) =>
    applyWithdrawal(deps, session, idempotencyKeyOf(request, session.userId, 'withdraw'), input.amount),
  );
  registerRoute(app, onchainRoutes.withdrawList, async ({ session, input }) => userWithdrawals(deps, session.userId, input));
  registerRoute(app, onchainRoutes.operatorWithdrawList, async ({ session, input }) => operatorWithdrawals(deps, session, input));
  registerRoute(app, onchainRoutes.operatorWithdrawApprove, async ({ session, input }) => approveWithdrawal(deps, session, input.id));
  registerRoute(app, onchainRoutes.operatorWithdrawReject, async ({ session, input }) => rejectWithdrawal(deps, session, input.id, input.reason));
}
