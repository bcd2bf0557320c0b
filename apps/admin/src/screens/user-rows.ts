import { addressSchema } from '@nadi/api/common';
import type { OperatorRoleItem } from '@nadi/api/operator';
import type { OperatorUserDetail } from '@nadi/api/operator-users';
import type { OperatorRole } from '@nadi/api/route';

// The users and roles screens' logic, apart from their markup: what a search looks for, whose role
// a listed user holds, and one user's detail as the rows and tab labels of its tabs.

/** What a users search matches (GET /api/v1/operator/users?q=): an id, an address prefix or an invite code. */
export function searchKind(q: string): 'all' | 'id' | 'address' | 'code' {
  const text = q.trim();
  if (text === '') return 'all';
  if (/^0x/i.test(text)) return 'address';
  if (/^[0-9]{1,9}$/.test(text)) return 'id';
  return 'code';
}

/** The users list's empty text for a search. */
export function emptySearchText(q: string): string {
  const text = q.trim();
  switch (searchKind(text)) {
    case 'all':
      return 'No users yet';
    case 'id':
      return `No user has the id or invite code ${text}`;
    case 'address':
      return `No user's address starts with ${text}`;
    case 'code':
      return `No user has the invite code ${text}`;
  }
}

export interface ListedRole {
  role: OperatorRole;
  isConfigured: boolean;
}

/**
 * Who holds a console role, by lower-case address: the users list joins its page with the holders
 * (GET /api/v1/operator/roles lists every one, configured admins included), so it needs no second
 * lookup per row.
 */
export function rolesByAddress(items: readonly OperatorRoleItem[] | undefined): Map<string, ListedRole> {
  const map = new Map<string, ListedRole>();
  for (const item of items ?? []) map.set(item.address.toLowerCase(), { role: item.role, isConfigured: item.is_configured });
  return map;
}

/** Whether an address is one the role form may send: the contract's own rule (0x and 40 hex digits). */
export function isAddress(value: string): boolean {
  return addressSchema.safeParse(value.trim()).success;
}

/** A signed amount from the ledger tab ("-12.5" when the user's account was debited). */
export function isDebit(amount: string): boolean {
  return amount.trim().startsWith('-');
}

export type LedgerRow = OperatorUserDetail['ledger'][number] & { key: string; side: 'debit' | 'credit' };
export type ReferrerRow = OperatorUserDetail['team']['referrers'][number] & { key: number };

export interface UserTabs {
  ledger: LedgerRow[];
  orders: OperatorUserDetail['orders'];
  miners: OperatorUserDetail['miners'];
  nodes: OperatorUserDetail['nodes'];
  savings: OperatorUserDetail['savings'];
  /** Referrers upwards, nearest first (depth 1 is the direct referrer). */
  referrers: ReferrerRow[];
  /** Direct referrals, newest first (the server sends at most fifty; team.direct_count counts all). */
  directs: OperatorUserDetail['team']['directs'];
  sessions: OperatorUserDetail['sessions'];
  /** Each tab's label with its row count, in the order the screen shows them. */
  labels: { key: UserTabKey; label: string; count: number }[];
}

export const userTabKeys = ['ledger', 'orders', 'miners', 'nodes', 'savings', 'team', 'sessions'] as const;
export type UserTabKey = (typeof userTabKeys)[number];

const tabTitles: Record<UserTabKey, string> = {
  ledger: 'Ledger lines',
  orders: 'Store orders',
  miners: 'Miners',
  nodes: 'Nodes',
  savings: 'Savings',
  team: 'Team',
  sessions: 'Sessions',
};

/**
 * One user's detail as its tabs' rows. A ledger flow touches the user's accounts more than once
 * (a transfer between two of their own accounts is a debit and a credit line), so a line's key is
 * the flow, the account kind, the side and its place; the team tab counts the whole team, not only
 * the referrers shown.
 */
export function userTabs(detail: OperatorUserDetail): UserTabs {
  const ledger = detail.ledger.map((line, index) => {
    const side = isDebit(line.amount) ? ('debit' as const) : ('credit' as const);
    return { ...line, side, key: `${line.flow_id}:${line.kind}:${line.asset}:${side}:${index}` };
  });
  const referrers = [...detail.team.referrers].sort((a, b) => a.depth - b.depth).map((r) => ({ ...r, key: r.id }));
  const counts: Record<UserTabKey, number> = {
    ledger: ledger.length,
    orders: detail.orders.length,
    miners: detail.miners.length,
    nodes: detail.nodes.length,
    savings: detail.savings.length,
    team: detail.team.team_size,
    sessions: detail.sessions.length,
  };
  return {
    ledger,
    orders: detail.orders,
    miners: detail.miners,
    nodes: detail.nodes,
    savings: detail.savings,
    referrers,
    directs: detail.team.directs,
    sessions: detail.sessions,
    labels: userTabKeys.map((key) => ({ key, label: `${tabTitles[key]} (${counts[key]})`, count: counts[key] })),
  };
}

/** A miner's status code as a word (docs/product.md section 4; the detail sends the code as text). */
export function minerStatusLabel(status: string): { label: string; color: string } {
  const labels: Record<string, { label: string; color: string }> = {
    '1': { label: 'trial', color: 'gold' },
    '2': { label: 'paused', color: 'default' },
    '3': { label: 'running', color: 'green' },
    '4': { label: 'unknown', color: 'red' },
  };
  return labels[status] ?? { label: status, color: 'default' };
}

/** The user id in a /users/:id path, or null when it is not a positive integer (the screen says not found). */
export function userIdOf(param: string | undefined): number | null {
  if (!param || !/^[0-9]{1,15}$/.test(param)) return null;
  const id = Number(param);
  return id >= 1 && Number.isSafeInteger(id) ? id : null;
}
