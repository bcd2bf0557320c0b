import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserInfo } from '@nadi/api/user';
import { call, type CallOptions } from './api-client.ts';
import { queryClient } from './query-client.ts';
import { session } from './session.ts';

// The signed-in user's info (user/info): the user centre, the invite screen and the route guard read
// it under one query key, so a purchase that changes the figures refreshes them all.

export async function getUserInfo(options: CallOptions = {}): Promise<UserInfo> {
  // Loaded on first use: the route guard imports this file, and the home route must not carry
  // the contract's zod schemas in its first download.
  const { userRoutes } = await import('@nadi/api/user');
  return call(userRoutes.info, undefined, options);
}

export const userInfoQueryOptions = () =>
  queryOptions({
    queryKey: ['user', 'info'],
    queryFn: async ({ signal }) => {
      const user = await getUserInfo({ signal });
      // The session keeps the latest user info too: the route guards read it synchronously.
      session.setUser(user);
      return user;
    },
  });

export function useUserInfo() {
  return useQuery(userInfoQueryOptions());
}

/** For the route guard: resolves false instead of throwing, the guard then decides where to go. */
export async function loadUserIntoSession(): Promise<boolean> {
  try {
    await queryClient.fetchQuery(userInfoQueryOptions());
    return true;
  } catch {
    return false;
  }
}
