// The console's device list: model, masked owner, activation, online now, last heartbeat and the
// uptime of the last settled epoch; filters by model and status; viewers may read, users may not.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uptimeBps } from '@nadi/economy/economy';
import { rowsOf } from '../../db/rows.ts';
import { get, heartbeat, issueCodes, operatorToken, post, registerDevices } from '../../test/devices.ts';
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
