import type { FastifyInstance } from 'fastify';
import { miningRoutes } from '@nadi/api/mining';
import { idempotencyKeyOf } from '../../lib/idempotency-key.ts';
import { registerRoute } from '../../lib/register-route.ts';
import { assertNotFrozen } from '../ledger/index.ts';
import { createDestroyOrder, destroyForMiner, previewDestroy } from './destroy.ts';
import { claimReleased, getIncome, getIncomeDetail, getMiners, getOverview, getPowerLog, getVesting } from './service.ts';

/** The mining user API. Activation (`activate`, `activations`) is registered by the device module. */
export async function miningModule(app: FastifyInstance) {
  const { deps } = app;
  registerRoute(app, miningRoutes.overview, async ({ session }) => getOverview(deps, session.userId));
  registerRoute(app, miningRoutes.miners, async ({ session, input }) => getMiners(deps, session.userId, input));
  registerRoute(app, miningRoutes.destroyPreview, async ({ session, input }) => previewDestroy(deps, session.userId, input.amount, input.pay_method));
  registerRoute(app, miningRoutes.destroy, async ({ session, input, request }) =>
    destroyForMiner(deps, session.userId, idempotencyKeyOf(request, session.userId, 'destroy'), input),
  );
  // An unpaid order costs a row, nothing else: a per-route budget (config.ts routeLimitDefaults).
  registerRoute(app, miningRoutes.destroyOrder, async ({ session, input }) => {
    await assertNotFrozen(deps.db, session.userId);
    return createDestroyOrder(deps, session.userId, input);
  });
  registerRoute(app, miningRoutes.powerLog, async ({ session, input }) => getPowerLog(deps.db, session.userId, input));
  registerRoute(app, miningRoutes.income, async ({ session, input }) => getIncome(deps, session.userId, input));
  registerRoute(app, miningRoutes.incomeDetail, async ({ session, input }) => getIncomeDetail(deps, session.userId, input.epoch));
  registerRoute(app, miningRoutes.vesting, async ({ session }) => getVesting(deps, session.userId));
  registerRoute(app, miningRoutes.claim, async ({ session, request }) =>
    claimReleased(deps, session.userId, idempotencyKeyOf(request, session.userId, 'claim')),
  );
}
