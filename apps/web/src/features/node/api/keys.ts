// Every query of the node feature starts with this key, so a purchase can refresh the list, the
// detail and my nodes at once. The list and a tier's detail carry who asks (`viewer`): what the
// caller holds is part of the answer, and a sign-in in the sheet must not show the signed-out copy.

export const nodeQueryKey = 'node';

export const nodeKeys = {
  list: (viewer: string) => [nodeQueryKey, 'list', viewer] as const,
  detail: (id: number, viewer: string) => [nodeQueryKey, 'detail', id, viewer] as const,
  mine: () => [nodeQueryKey, 'mine'] as const,
  earnings: (holdingId: number) => [nodeQueryKey, 'earnings', holdingId] as const,
};

/** The viewer part of a key: the signed-in wallet, or "anon". */
export function viewerOf(walletAddress: string | null): string {
  return walletAddress?.toLowerCase() ?? 'anon';
}
