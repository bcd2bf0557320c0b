import { z } from 'zod/mini';
import { route } from './route.ts';
import { addressSchema, envelope } from './common.ts';
import { inviteCodePattern } from './http.ts';

export { inviteCodePattern } from './http.ts';

/** Sign-In with Ethereum messages are short; anything longer is refused before parsing. */
export const siweMessageLengthMax = 2048;

export const loginMessageQuery = z.object({ address: addressSchema });
export const loginMessageData = z.object({
  /** The full EIP-4361 message for the wallet to sign. */
  message: z.string(),
  nonce: z.string(),
  issued_at: z.string(),
  expiration_time: z.string(),
});
export const loginMessageResponse = envelope(loginMessageData);
export type LoginMessageData = z.infer<typeof loginMessageData>;

export const inviteCodeSchema = z.pipe(
  z.pipe(
    z.string().check(z.trim()),
    z.transform((value) => value.toUpperCase()),
  ),
  z.string().check(z.regex(inviteCodePattern)),
);

export const loginBody = z.object({
  address: addressSchema,
  message: z.string().check(z.minLength(1), z.maxLength(siweMessageLengthMax)),
  sign_message: z.string().check(z.regex(/^0x[0-9a-fA-F]+$/), z.maxLength(20_000)),
  /** Invite code; needed only the first time an address signs in. */
  code: z.optional(z.union([inviteCodeSchema, z.literal('')])),
});
export type LoginBody = z.infer<typeof loginBody>;

export const loginData = z.object({
  token: z.string(),
  expires_in_ms: z.int(),
  is_new_user: z.boolean(),
});
export const loginResponse = envelope(loginData);
export type LoginData = z.infer<typeof loginData>;

export const isRegisterBody = z.object({ address: addressSchema });
export const isRegisterData = z.object({ is_register: z.boolean() });
export const isRegisterResponse = envelope(isRegisterData);

export const logoutResponse = envelope(z.null());

export const authRoutes = {
  loginMessage: route({
    method: 'GET',
    path: '/api/v1/auth/loginMessage',
    input: loginMessageQuery,
    response: loginMessageResponse,
    auth: false,
    summary: 'A fresh Sign-In with Ethereum message with a single-use nonce',
  }),
  login: route({
    method: 'POST',
    path: '/api/v1/auth/login',
    input: loginBody,
    response: loginResponse,
    auth: false,
    summary: 'Verify the signed message and open a session (registers with an invite code)',
  }),
  isRegister: route({
    method: 'POST',
    path: '/api/v1/auth/isRegister',
    input: isRegisterBody,
    response: isRegisterResponse,
    auth: false,
    summary: 'Whether an address already has an account',
  }),
  logout: route({
    method: 'POST',
    path: '/api/v1/auth/logout',
    input: undefined,
    response: logoutResponse,
    auth: true,
    summary: 'End the current session',
  }),
};
