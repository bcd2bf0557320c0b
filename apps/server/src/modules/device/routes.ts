import type { FastifyInstance } from 'fastify';
import { deviceRoutes, miningRoutes } from '@nadi/api/mining';
import { registerRoute } from '../../lib/register-route.ts';
import { acceptHeartbeat, deviceClock } from './heartbeat.ts';
import { operatorCodeBatches, operatorDevices } from './operator-devices.ts';
import { activate, generateCodeBatch, operatorModels, registerDevices, revokeCode, saveModel, userActivations } from './service.ts';

/** Devices: their heartbeats and clock (no session, the signature is the proof), activation, and the operator's API. */
export async function deviceModule(app: FastifyInstance) {
  const { deps } = app;
  registerRoute(app, deviceRoutes.clock, async () => deviceClock(deps));
  registerRoute(app, deviceRoutes.heartbeat, async ({ input }) => acceptHeartbeat(deps, input));
  registerRoute(app, miningRoutes.activate, async ({ session, input }) => activate(deps, session.userId, input.code));
  registerRoute(app, miningRoutes.activations, async ({ session, input }) => userActivations(deps.db, session.userId, input));
  registerRoute(app, deviceRoutes.operatorModels, async () => operatorModels(deps));
  registerRoute(app, deviceRoutes.operatorDevices, async ({ input }) => operatorDevices(deps, input));
  registerRoute(app, deviceRoutes.operatorSaveModel, async ({ session, input }) => saveModel(deps, session, input));
  registerRoute(app, deviceRoutes.operatorRegister, async ({ session, input }) => registerDevices(deps, session, input));
  registerRoute(app, deviceRoutes.operatorCodeBatch, async ({ session, input }) => generateCodeBatch(deps, session, input));
  registerRoute(app, deviceRoutes.operatorCodeBatches, async ({ input }) => operatorCodeBatches(deps, input));
  registerRoute(app, deviceRoutes.operatorRevokeCode, async ({ session, input }) => revokeCode(deps, session, input.serial));
}
