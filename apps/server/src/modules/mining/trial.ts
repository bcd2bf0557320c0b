// The trial miner (docs/economy.md, "Trial"): every user gets one, once, when the user is created
// (and every user that existed before mining, once, at the first start with mining). It counts from
// the epoch it is granted in for trialEpochs epochs; settlement ends it.
import { sql } from 'drizzle-orm';
import type { AppSettings } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { epochClock, miningGenesis } from './clock.ts';
import { paramsAt } from './params.ts';
import { changePower } from './power.ts';

export interface MiningDeps {
  settings: Pick<AppSettings, 'epochSeconds' | 'heartbeatSeconds'>;
}

/** The trial terms at `now`: the current epoch, its last epoch and its power. */
async function trialTerms(tx: Db | Tx, now: Date, deps: MiningDeps) {
  const genesis = await miningGenesis(tx, now, deps.settings.epochSeconds);
  const epoch = epochClock(genesis, { epochSeconds: deps.settings.epochSeconds }).epochOf(now);
  const params = await paramsAt(tx, deps.settings, epoch);
  return { epoch, endsEpoch: epoch + params.trialEpochs - 1, power: params.trialPower };
}

/**
 * Gives the user the trial miner unless they have one (the partial unique index miners_trial_once_key
 * decides between concurrent calls) and logs the power. Answers the new miner's id, or null when the
 * user already had a trial.
 */
export async function grantTrial(tx: Db | Tx, userId: number, now: Date, deps: MiningDeps): Promise<number | null> {
  const terms = await trialTerms(tx, now, deps);
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      insert into miners (user_id, kind, status, base_power, gift_power, starts_epoch, ends_epoch, created_at)
      values (${userId}, 'trial', 1, ${terms.power.toString()}::bigint, 0, ${terms.epoch}, ${terms.endsEpoch}, ${now})
      on conflict (user_id) where kind = 'trial' do nothing
      returning id::text as id`),
  );
  const minerId = rows[0] ? Number(rows[0].id) : null;
  if (minerId === null) return null;
  if (terms.power > 0n) await changePower(tx, { userId, type: 'trial', delta: terms.power, minerId, epoch: terms.epoch, now });
  return minerId;
}

/**
 * The start step: fixes the mining genesis and gives every user without a trial miner one, set-based
 * (miner, user_power and power_log rows in one statement, as changePower would write them one by one).
 * Answers how many were granted.
 */
export async function grantTrialsToExistingUsers(tx: Db | Tx, now: Date, deps: MiningDeps): Promise<number> {
  const terms = await trialTerms(tx, now, deps);
  const power = terms.power.toString();
  const rows = rowsOf<{ granted: string }>(
    await tx.execute(sql`
      with granted as (
        insert into miners (user_id, kind, status, base_power, gift_power, starts_epoch, ends_epoch, created_at)
        select u.id, 'trial', 1, ${power}::bigint, 0, ${terms.epoch}, ${terms.endsEpoch}, ${now}
          from users u
         where not exists (select 1 from miners m where m.user_id = u.id and m.kind = 'trial')
         order by u.id
        on conflict (user_id) where kind = 'trial' do nothing
        returning id, user_id
      ), powered as (
        insert into user_power (user_id, power, updated_at)
        select user_id, ${power}::bigint, ${now} from granted where ${power}::bigint > 0
        on conflict (user_id) do update set power = user_power.power + excluded.power, updated_at = excluded.updated_at
        returning user_id, power
      ), logged as (
        insert into power_log (user_id, type, miner_id, before, after, epoch, created_at)
        select g.user_id, 'trial', g.id, p.power - ${power}::bigint, p.power, ${terms.epoch}, ${now}
          from granted g join powered p on p.user_id = g.user_id
        returning 1
      )
      select count(*)::text as granted from granted`),
  );
  return Number(rows[0]?.granted ?? '0');
}
