// The console's device list: model, masked owner, activation, online now, last heartbeat and the
// uptime of the last settled epoch; filters by model, status and code state; viewers may read,
// users may not. The activation code batches list: creator, counts by state, never the codes.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uptimeBps } from '@nadi/economy/economy';
import { rowsOf } from '../../db/rows.ts';
import { get, heartbeat, issueCodes, operatorAccount, operatorToken, post, registerDevices } from '../../test/devices.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { settleDueEpochs } from '../mining/index.ts';

let t: TestApp;
let operator: string;
let user: string;
const owner = newAccount();

beforeAll(async () => {
  t = await createTestApp({ SESSION_IDLE_MS: '86400000' });
  operator = await operatorToken(t.app);
  user = await signIn(t.app, owner, rootInviteCode);
});
afterAll(async () => {
  await t?.close();
});

type Item = {
  serial: string;
  owner: string | null;
  activated: boolean;
  online: boolean;
  last_heartbeat_at: string | null;
  settled_epoch: number | null;
  settled_uptime_bps: number | null;
  code_state: string | null;
};
type Batch = {
  id: number;
  created_by: string | null;
  created_at: string;
  count: number;
  issued: number;
  used: number;
  revoked: number;
  expires_at: string | null;
};
const list = async (query = '') => (await get(t.app, operator, `/api/v1/operator/devices?page_size=50${query}`)).json().data as { list: Item[]; total: number };

describe('the console device list', () => {
  it('shows owner (masked), activation, online and uptime of the last settled epoch, with filters', async () => {
    const [bound, spare] = await registerDevices(t.app, operator, 2, 'OPS');
    const codes = await issueCodes(t.app, operator, [bound!.serial]);
    const activated = await post(t.app, user, '/api/v1/mining/activate', { code: codes.get(bound!.serial) });
    expect(activated.statusCode, activated.body).toBe(200);
    expect((await heartbeat(t.app, t.clock, bound!, 1)).statusCode).toBe(200);

    const all = await list();
    const b = all.list.find((d) => d.serial === bound!.serial);
    const s = all.list.find((d) => d.serial === spare!.serial);
    expect(b).toMatchObject({
      activated: true,
      online: true,
      owner: `${owner.address.toLowerCase().slice(0, 6)}…${owner.address.toLowerCase().slice(-4)}`,
      last_heartbeat_at: t.clock.now().toISOString(),
    });
    expect(s).toMatchObject({ activated: false, online: false, owner: null, last_heartbeat_at: null, settled_epoch: null, settled_uptime_bps: null });

    const serials = async (q: string) => (await list(q)).list.map((d) => d.serial);
    expect(await serials('&status=activated')).toContain(bound!.serial);
    expect(await serials('&status=activated')).not.toContain(spare!.serial);
    expect(await serials('&status=unbound')).toContain(spare!.serial);
    expect(await serials('&status=online')).toEqual([bound!.serial]);
    expect(await serials('&status=offline')).not.toContain(bound!.serial);
    expect((await list('&model=NADI-BOX-1')).total).toBe(all.total);
    expect((await list('&model=NONE')).total).toBe(0);

    // The epoch ends and is settled: its uptime shows; the device is offline by now.
    t.clock.advance(t.settings.epochSeconds * 1000);
    const settled = await settleDueEpochs(t.app.deps);
    expect(settled.length).toBeGreaterThan(0);
    const lastEpoch = Number(rowsOf<{ e: number }>(await t.database.db.execute(sql`select max(epoch) as e from mining_epochs`))[0]?.e);
    const after = (await list()).list.find((d) => d.serial === bound!.serial);
    expect(after).toMatchObject({ online: false, settled_epoch: lastEpoch, settled_uptime_bps: uptimeBps(1, t.settings) });
    expect(after?.settled_uptime_bps).toBeGreaterThan(0);
  });

  it('lets a viewer read, refuses a user, and refuses an unknown status', async () => {
    expect((await get(t.app, user, '/api/v1/operator/devices')).statusCode).toBe(403);
    const viewer = newAccount();
    const viewerToken = await signIn(t.app, viewer, rootInviteCode);
    await t.database.db.execute(
      sql`insert into operator_roles (user_id, role, granted_at) select id, 'viewer', now() from users where lower(address) = ${viewer.address.toLowerCase()}`,
    );
    expect((await get(t.app, viewerToken, '/api/v1/operator/devices')).statusCode).toBe(200);
    const bad = await get(t.app, operator, '/api/v1/operator/devices?status=broken');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().reason).toBe('BAD_REQUEST');
  });
});

describe('the activation code state of a device and the batches list', () => {
  const batches = async (query = '', token = operator) => {
    const res = await get(t.app, token, `/api/v1/operator/activation/batches${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { list: Batch[]; total: number; page: number; page_size: number };
  };

  it("shows each device's code state and filters by it (without: none or revoked)", async () => {
    const [fresh, issued, used, revoked] = await registerDevices(t.app, operator, 4, 'CST');
    const codes = await issueCodes(t.app, operator, [issued!.serial, used!.serial, revoked!.serial]);
    expect((await post(t.app, user, '/api/v1/mining/activate', { code: codes.get(used!.serial) })).statusCode).toBe(200);
    expect((await post(t.app, operator, '/api/v1/operator/activation/revoke', { serial: revoked!.serial })).statusCode).toBe(200);

    const states = new Map((await list()).list.map((d) => [d.serial, d.code_state]));
    expect(states.get(fresh!.serial)).toBeNull();
    expect(states.get(issued!.serial)).toBe('issued');
    expect(states.get(used!.serial)).toBe('used');
    expect(states.get(revoked!.serial)).toBe('revoked');

    const mine = [fresh, issued, used, revoked].map((k) => k!.serial);
    const serials = async (q: string) => (await list(q)).list.map((d) => d.serial).filter((s) => mine.includes(s));
    expect((await serials('&code=without')).sort()).toEqual([fresh!.serial, revoked!.serial].sort());
    expect(await serials('&code=issued')).toEqual([issued!.serial]);
    expect(await serials('&code=used')).toEqual([used!.serial]);
    expect(await serials('&code=revoked')).toEqual([revoked!.serial]);
    // The console's "unbound of a model without a code" is the two filters together.
    expect((await serials('&status=unbound&code=without&model=NADI-BOX-1')).sort()).toEqual([fresh!.serial, revoked!.serial].sort());
    expect((await get(t.app, operator, '/api/v1/operator/devices?code=lost')).statusCode).toBe(400);
  });

  it('lists batches newest first with creator, counts by state and expiry, never a code', async () => {
    const [a, b, c] = await registerDevices(t.app, operator, 3, 'BAT');
    const expiresAt = new Date(t.clock.now().getTime() + 7 * 86_400_000);
    const first = await issueCodes(t.app, operator, [a!.serial, b!.serial], expiresAt);
    expect((await post(t.app, user, '/api/v1/mining/activate', { code: first.get(a!.serial) })).statusCode).toBe(200);
    expect((await post(t.app, operator, '/api/v1/operator/activation/revoke', { serial: b!.serial })).statusCode).toBe(200);
    await issueCodes(t.app, operator, [c!.serial]);

    const page = await batches('?page_size=2');
    expect(page.page_size).toBe(2);
    expect(page.list).toHaveLength(2);
    const [newest, older] = page.list;
    expect(newest!.id).toBeGreaterThan(older!.id);
    expect(newest).toMatchObject({ count: 1, issued: 1, used: 0, revoked: 0, expires_at: null, created_by: operatorAccount.address.toLowerCase() });
    expect(older).toMatchObject({ count: 2, issued: 0, used: 1, revoked: 1, expires_at: expiresAt.toISOString() });
    expect(Date.parse(older!.created_at)).not.toBeNaN();
    expect(page.total).toBe((await batches()).total);
    expect(page.total).toBeGreaterThanOrEqual(3);
    // Never the codes: no code of the batch appears anywhere in the answer.
    const body = (await get(t.app, operator, '/api/v1/operator/activation/batches')).body;
    for (const code of first.values()) expect(body).not.toContain(code);

    // A revoked code given a new one in a later batch moves to that batch.
    await issueCodes(t.app, operator, [b!.serial]);
    const [reissue] = (await batches()).list;
    expect(reissue).toMatchObject({ count: 1, issued: 1 });
    expect((await batches()).list.find((x) => x.id === older!.id)).toMatchObject({ count: 2, used: 1, revoked: 0 });
  });

  it('lets a viewer read the batches and refuses a user', async () => {
    expect((await get(t.app, user, '/api/v1/operator/activation/batches')).statusCode).toBe(403);
    const viewer = newAccount();
    const viewerToken = await signIn(t.app, viewer, rootInviteCode);
    await t.database.db.execute(
      sql`insert into operator_roles (user_id, role, granted_at) select id, 'viewer', now() from users where lower(address) = ${viewer.address.toLowerCase()}`,
    );
    expect((await batches('', viewerToken)).list.length).toBeGreaterThan(0);
  });
});
