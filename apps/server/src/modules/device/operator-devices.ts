// The console's device list (docs/operator.md, "Console API"): every device with its model, masked
// owner, activation, whether it is online now (last heartbeat at most `onlineHeartbeats` intervals
// old, as the phone shows it) and its uptime in the last settled mining epoch.
import { sql, type SQL } from 'drizzle-orm';
import { uptimeBps } from '@nadi/economy/economy';
import type { PageQuery } from '@nadi/api/common';
import type { activationCodeStates, OperatorCodeBatchItem, operatorDeviceCodeFilters, OperatorDeviceItem, operatorDeviceStatuses } from '@nadi/api/mining';
import { rowsOf } from '../../db/rows.ts';
import type { AppDeps } from '../../deps.ts';
import { shortAddress } from '../../lib/short-address.ts';
import { lastSettledEpoch, miningNow, onlineHeartbeats, paramsAt } from '../mining/index.ts';
import { addressesOf } from '../user/index.ts';

interface DeviceRow {
  serial: string;
  model: string;
  model_name: string;
  owner_user_id: number | null;
  bound_at: Date | string | null;
  last_seen_at: Date | string | null;
  beats: number | null;
  code_state: (typeof activationCodeStates)[number] | null;
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

export async function operatorDevices(
  deps: Pick<AppDeps, 'db' | 'settings' | 'now'>,
  query: PageQuery & {
    model?: string | undefined;
    status?: (typeof operatorDeviceStatuses)[number] | undefined;
    code?: (typeof operatorDeviceCodeFilters)[number] | undefined;
  },
) {
  const m = await miningNow(deps);
  const settled = await lastSettledEpoch(deps.db);
  const settledParams = settled === null ? null : await paramsAt(deps.db, deps.settings, settled);
  const onlineSince = new Date(m.now.getTime() - onlineHeartbeats * m.params.heartbeatSeconds * 1000);
  const filters: SQL[] = [];
  if (query.model) filters.push(sql`dm.code = ${query.model}`);
  if (query.status === 'unbound') filters.push(sql`d.owner_user_id is null`);
  if (query.status === 'activated') filters.push(sql`d.owner_user_id is not null`);
  if (query.status === 'online') filters.push(sql`d.last_seen_at >= ${onlineSince}`);
  if (query.status === 'offline') filters.push(sql`(d.last_seen_at is null or d.last_seen_at < ${onlineSince})`);
  if (query.code === 'without') filters.push(sql`(ac.state is null or ac.state = 'revoked')`);
  else if (query.code) filters.push(sql`ac.state = ${query.code}`);
  const where = filters.length > 0 ? sql`where ${sql.join(filters, sql` and `)}` : sql``;
  const from = sql`from devices d join device_models dm on dm.id = d.model_id 
    left join activation_codes ac on ac.device_id = d.id`;
  const [rows, totals] = await Promise.all([
    deps.db.execute(sql`
      select d.serial, dm.code as model, dm.name as model_name, d.owner_user_id, d.bound_at, d.last_seen_at, du.beats, ac.state as code_state
      ${from}
      left join device_uptime du on du.device_id = d.id and du.epoch = ${settled ?? -1}
      ${where}
      order by d.id desc
      offset ${(query.page - 1) * query.page_size} limit ${query.page_size}`),
    deps.db.execute(sql`select count(*)::int as n ${from} ${where}`),
  ]);
  const devices = rowsOf<DeviceRow>(rows);
  const owners = await addressesOf(
    deps.db,
    devices.flatMap((d) => (d.owner_user_id === null ? [] : [Number(d.owner_user_id)])),
  );
  const list = devices.map((row): OperatorDeviceItem => {
    const lastSeen = iso(row.last_seen_at);
    const ownerAddress = row.owner_user_id === null ? null : (owners.get(Number(row.owner_user_id)) ?? null);
    return {
      serial: row.serial,
      model: row.model,
      model_name: row.model_name,
      owner: ownerAddress === null ? null : shortAddress(ownerAddress),
      activated: ownerAddress !== null,
      bound_at: iso(row.bound_at),
      online: lastSeen !== null && Date.parse(lastSeen) >= onlineSince.getTime(),
      last_heartbeat_at: lastSeen,
      settled_epoch: settled,
      settled_uptime_bps: settledParams === null ? null : uptimeBps(Number(row.beats ?? 0), settledParams),
      code_state: row.code_state,
    };
  });
  return { list, total: Number(rowsOf<{ n: number }>(totals)[0]?.n ?? 0), page: query.page, page_size: query.page_size };
}

interface BatchRow {
  id: number;
  created_by: number | null;
  created_at: Date | string;
  count: number;
  issued: number;
  used: number;
  revoked: number;
  expires_at: Date | string | null;
}

/** Activation code batches newest first: who generated them, when, how many, and their codes' states now (never the codes). */
export async function operatorCodeBatches(deps: Pick<AppDeps, 'db'>, query: PageQuery) {
  const [rows, totals] = await Promise.all([
    deps.db.execute(sql`
      select b.id, b.created_by, b.created_at, b.count, b.expires_at,
        count(ac.id) filter (where ac.state = 'issued')::int as issued,
        count(ac.id) filter (where ac.state = 'used')::int as used,
        count(ac.id) filter (where ac.state = 'revoked')::int as revoked
      from activation_code_batches b
      left join activation_codes ac on ac.batch_id = b.id
      group by b.id
      order by b.id desc
      offset ${(query.page - 1) * query.page_size} limit ${query.page_size}`),
    deps.db.execute(sql`select count(*)::int as n from activation_code_batches`),
  ]);
  const batches = rowsOf<BatchRow>(rows);
  const creators = await addressesOf(
    deps.db,
    batches.flatMap((b) => (b.created_by === null ? [] : [Number(b.created_by)])),
  );
  const list = batches.map(
    (row): OperatorCodeBatchItem => ({
      id: Number(row.id),
      created_by: row.created_by === null ? null : (creators.get(Number(row.created_by)) ?? null),
      created_at: new Date(row.created_at).toISOString(),
      count: Number(row.count),
      issued: Number(row.issued),
      used: Number(row.used),
      revoked: Number(row.revoked),
      expires_at: iso(row.expires_at),
    }),
  );
  return { list, total: Number(rowsOf<{ n: number }>(totals)[0]?.n ?? 0), page: query.page, page_size: query.page_size };
}
