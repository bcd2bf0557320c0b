// Four-eyes in tests of other modules: an economy parameter change is a request that a second admin
// approves (docs/operator.md "Four-eyes"). The second admin is a fresh account granted the role.
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { rootInviteCode } from './harness.ts';
import { newAccount, signIn } from './sign-in.ts';

/** A fresh admin each time: the test's clock may have moved past an earlier session's life. */
async function secondAdmin(app: FastifyInstance): Promise<string> {
  const account = newAccount();
  const token = await signIn(app, account, rootInviteCode);
  await app.deps.db.execute(
    sql`insert into operator_roles (user_id, role, granted_at) select id, 'admin', now() from users where address = ${account.address.toLowerCase()}`,
  );
  return token;
}

/**
 * Requests the change as `token` (with a reason) and has a second admin approve it: answers the
 * first refusal (request or approval), else the approval's response.
 */
export async function setEconomyParamApproved(
  app: FastifyInstance,
  token: string,
  body: Record<string, unknown>,
  lang = 'EN',
): Promise<LightMyRequestResponse> {
  const requested = await app.inject({
    method: 'POST',
    url: '/api/v1/operator/economy/param',
    payload: { reason: 'test', ...body },
    headers: { authorization: token, lang },
  });
  if (requested.statusCode !== 200) return requested;
  const approver = await secondAdmin(app);
  return app.inject({
    method: 'POST',
    url: '/api/v1/operator/approval/approve',
    payload: { id: requested.json().data.id },
    headers: { authorization: approver, lang },
  });
}
