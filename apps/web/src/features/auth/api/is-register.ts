import { authRoutes } from '@nadi/api/auth';
import { call } from '../../../lib/api-client.ts';

/** Whether the address already has an account; a new one must bring an invite code. */
export async function isRegistered(address: string): Promise<boolean> {
  const data = await call(authRoutes.isRegister, { address }, { isSilent: true });
  return data.is_register;
}
