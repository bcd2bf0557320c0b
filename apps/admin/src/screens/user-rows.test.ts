import type { OperatorUserDetail } from '@nadi/api/operator-users';
import { describe, expect, it } from 'vitest';
import { emptySearchText, isAddress, isDebit, minerStatusLabel, rolesByAddress, searchKind, userIdOf, userTabs } from './user-rows.ts';

const at = '2026-11-26T10:00:00.000Z';
const base: OperatorUserDetail = {
  user: {
    id: 7,
    address: '0xabc0000000000000000000000000000000000007',
    invite_code: 'K7Q2',
    name: '',
    referrer_id: 3,
    frozen_at: null,
    created_at: at,
    frozen_reason: null,
    level: 0,
    role: null,
  },
  balances: [],
  ledger: [],
  orders: [],
  miners: [],
  nodes: [],
  savings: [],
  team: { referrers: [], directs: [], direct_count: 0, team_size: 0, me_performance: '0', team_performance: '0' },
  sessions: [],
};

describe('the users search', () => {
  it('says what a search looks for, and what its empty list means', () => {
    expect(searchKind('  ')).toBe('all');
    expect(searchKind('42')).toBe('id');
    expect(searchKind('0xAbC')).toBe('address');
    expect(searchKind('K7Q2')).toBe('code');
    // Longer than an id the server matches: an invite code made of digits.
    expect(searchKind('1234567890')).toBe('code');
    expect(emptySearchText('')).toBe('No users yet');
    expect(emptySearchText(' 0xab ')).toBe("No user's address starts with 0xab");
    expect(emptySearchText('42')).toBe('No user has the id or invite code 42');
  });

  it('finds a listed user’s console role by address, whatever its case', () => {
    const roles = rolesByAddress([
      { user_id: 1, address: '0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266', role: 'admin', is_configured: true, granted_by: null, granted_at: null },
      { user_id: 5, address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', role: 'viewer', is_configured: false, granted_by: 1, granted_at: at },
    ]);
    expect(roles.get('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')).toEqual({ role: 'admin', isConfigured: true });
    expect(roles.get('0x70997970c51812dc3a010c7d01b50e0d17dc79c8')).toEqual({ role: 'viewer', isConfigured: false });
    expect(rolesByAddress(undefined).size).toBe(0);
  });

  it('checks an address as the contract does (0x and 40 hex digits)', () => {
    expect(isAddress('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toBe(true);
    expect(isAddress(' 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 ')).toBe(true);
    expect(isAddress('0x70997970C51812dc3A010C7d01b50e0d17dc79C')).toBe(false);
    expect(isAddress('70997970C51812dc3A010C7d01b50e0d17dc79C8aa')).toBe(false);
    expect(isAddress('0x70997970C51812dc3A010C7d01b50e0d17dc79Cg')).toBe(false);
  });

  it('names the miner status codes', () => {
    expect(['1', '2', '3', '4'].map((s) => minerStatusLabel(s).label)).toEqual(['trial', 'paused', 'running', 'unknown']);
    expect(minerStatusLabel('9').label).toBe('9');
  });

  it('reads the id of a /users/:id path, refusing what is not a positive integer', () => {
    expect(userIdOf('12')).toBe(12);
    expect(userIdOf('0')).toBeNull();
    expect(userIdOf('-1')).toBeNull();
    expect(userIdOf('1e3')).toBeNull();
    expect(userIdOf(undefined)).toBeNull();
  });
});

describe('a user’s detail as tab rows', () => {
  it('keys each ledger line apart, even the two lines of a transfer between the user’s own accounts', () => {
    const detail: OperatorUserDetail = {
      ...base,
      ledger: [
        { flow_id: 9, type: 'transfer', kind: 'fund', asset: 'NADI', amount: '-2', part: 'principal', created_at: at },
        { flow_id: 9, type: 'transfer', kind: 'trade', asset: 'NADI', amount: '2', part: 'principal', created_at: at },
        { flow_id: 8, type: 'deposit', kind: 'fund', asset: 'NADI', amount: '12.000000000000000001', part: 'principal', created_at: at },
      ],
    };
    const { ledger } = userTabs(detail);
    expect(ledger.map((l) => l.side)).toEqual(['debit', 'credit', 'credit']);
    expect(new Set(ledger.map((l) => l.key)).size).toBe(3);
    // Amounts stay the server's decimal strings, never numbers.
    expect(ledger[2]?.amount).toBe('12.000000000000000001');
    expect(isDebit(' -0.5')).toBe(true);
    expect(isDebit('0.5')).toBe(false);
  });

  it('lists referrers nearest first and labels each tab with its count (the team tab: the whole team)', () => {
    const detail: OperatorUserDetail = {
      ...base,
      orders: [{ id: 1, order_no: 'S1', status: 'to_ship', pay_asset: 'USDT', pay_amount: '10', created_at: at }],
      team: {
        referrers: [
          { id: 1, address: '0x01', depth: 2 },
          { id: 3, address: '0x03', depth: 1 },
        ],
        directs: [{ id: 11, address: '0x11', frozen_at: null, created_at: at }],
        direct_count: 4,
        team_size: 17,
        me_performance: '0',
        team_performance: '250.5',
      },
      sessions: [{ id: 5, created_at: at, last_seen_at: at, expires_at: at }],
    };
    const tabs = userTabs(detail);
    expect(tabs.referrers.map((r) => [r.depth, r.id])).toEqual([
      [1, 3],
      [2, 1],
    ]);
    expect(tabs.directs.map((d) => d.id)).toEqual([11]);
    expect(tabs.labels.map((l) => l.label)).toEqual([
      'Ledger lines (0)',
      'Store orders (1)',
      'Miners (0)',
      'Nodes (0)',
      'Savings (0)',
      'Team (17)',
      'Sessions (1)',
    ]);
    // The detail itself is left as it was.
    expect(detail.team.referrers[0]?.depth).toBe(2);
  });
});
