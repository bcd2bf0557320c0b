// A session for the signed-in screens, got through the API as the phone gets it (docs/sign-in.md):
// the SIWE message of GET auth/loginMessage signed with a local key (viem), posted to auth/login,
// sealed when the server asks for the envelope (docs/envelope.md), like e2e/support/api.ts does;
// then the user's info, which the app keeps in the session once it has read it (lib/user-info.ts):
// a signed-in user who opens the app again has it there.
import { authRoutes, type LoginData, type LoginMessageData } from '@nadi/api/auth';
import { userRoutes, type UserInfo } from '@nadi/api/user';
import { EnvelopeClient, type EnvelopeConfig } from '@nadi/envelope/client';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';

export interface BenchAccount {
  account: PrivateKeyAccount;
  /** Sent with the first sign-in only (it registers the address). */
  inviteCode: string;
  isRegistered: boolean;
}

export function newBenchAccount(inviteCode: string): BenchAccount {
  return { account: privateKeyToAccount(generatePrivateKey()), inviteCode, isRegistered: false };
}

/** A call's data through the envelope the server asks for (sealed or not). */
export async function apiData<T>(envelope: EnvelopeClient, baseUrl: string, call: Parameters<EnvelopeClient['request']>[0]): Promise<T> {
  const answer = await envelope.request(call, (url, init) => fetch(`${baseUrl}${url}`, init));
  const body = answer.body as { code?: number; data?: T } | null;
  if (body?.code !== 200 || body.data === undefined) throw new Error(`${call.pathAndQuery}: HTTP ${answer.status} ${JSON.stringify(body)}`);
  return body.data;
}

/** The request envelope as the server at `baseUrl` asks for it (its config says whether and to which key). */
export function envelopeFor(baseUrl: string): EnvelopeClient {
  return new EnvelopeClient({
    loadConfig: async () => ((await (await fetch(`${baseUrl}/api/v1/common/config`)).json()) as { data: { encryption: EnvelopeConfig } }).data.encryption,
  });
}

/** A new session token for the account (each signed-in run gets its own, so none idles out), and its user. */
export async function signIn(baseUrl: string, who: BenchAccount): Promise<{ token: string; user: UserInfo }> {
  const envelope = envelopeFor(baseUrl);
  const address = who.account.address;
  const { message } = await apiData<LoginMessageData>(envelope, baseUrl, {
    method: 'GET',
    pathAndQuery: `${authRoutes.loginMessage.path}?address=${address}`,
  });
  const sign_message = await who.account.signMessage({ message });
  const code = who.isRegistered ? '' : who.inviteCode;
  const { token } = await apiData<LoginData>(envelope, baseUrl, {
    method: 'POST',
    pathAndQuery: authRoutes.login.path,
    body: { address, message, sign_message, code },
  });
  who.isRegistered = true;
  const user = await apiData<UserInfo>(envelope, baseUrl, { method: 'GET', pathAndQuery: userRoutes.info.path, token });
  return { token, user };
}
