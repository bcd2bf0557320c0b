import { eq, sql } from 'drizzle-orm';
import type { AppSettings } from '../../config.ts';
import type { Db } from '../client.ts';
import { notices, seedRuns, users } from '../schema.ts';
import { insertSettingIfAbsent, settingKeys } from '../../modules/config/index.ts';
import { shortAddress } from '../../modules/user/index.ts';
import { demoNotices } from './notices.ts';
import { createUserAccounts } from '../../modules/ledger/index.ts';
import { priceSettingKeys } from '../../modules/wallet/index.ts';
import { marketSettingKey } from '../../modules/market/index.ts';
import { grantTrialsToExistingUsers, miningGenesis } from '../../modules/mining/index.ts';
import { seedDefaultDeviceModel, seedDeviceModels, storeDeviceModels } from './device-models.ts';
import { seedNodeTiers } from './node-tiers.ts';
import { seedStoreProducts, storeSeedProducts } from './store-products.ts';
import { pledgeSeedProducts, seedPledgeProducts } from './pledge-products.ts';

const nodeSaleDaysDefault = 30;

/**
 * Puts the ground every environment needs (the root of the referral tree, the node deadline) and,
 * in development, demo notices. Each part runs once: a second start finds its seed_runs row.
 */
export async function seedDatabase(db: Db, settings: AppSettings, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    // One starter at a time: two instances starting together must not both seed.
    await tx.execute(sql`select pg_advisory_xact_lock(727001)`);
    const root = await tx
      .insert(users)
      .values({
        address: settings.rootAddress.toLowerCase(),
        inviteCode: settings.rootInviteCode,
        referrerId: null,
        name: shortAddress(settings.rootAddress.toLowerCase()),
        role: 'operator',
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (root[0]) await createUserAccounts(tx, root[0].id);
    const deadline = new Date(now.getTime() + nodeSaleDaysDefault * 86_400_000).toISOString();
    await insertSettingIfAbsent(tx, settingKeys.nodeDeadline, deadline);
    await insertSettingIfAbsent(tx, priceSettingKeys.nadiReferencePrice, settings.nadiReferencePrice);
    await insertSettingIfAbsent(tx, priceSettingKeys.exchangeFeeBps, settings.exchangeFeeBps);
    await insertSettingIfAbsent(tx, marketSettingKey, settings.market);
    // Mining: the genesis is fixed at the first start; users who existed before mining get their
    // trial miner once (users created later get it at registration).
    await miningGenesis(tx, now, settings.epochSeconds);
    const trials = await tx.insert(seedRuns).values({ name: 'mining-trials', rows: 0 }).onConflictDoNothing().returning();
    if (trials.length > 0) {
      const granted = await grantTrialsToExistingUsers(tx, now, { settings });
      await tx.update(seedRuns).set({ rows: granted }).where(eq(seedRuns.name, 'mining-trials'));
    }
    // The savings products (docs/nodes-and-savings.md), in every environment, once: later the operator's.
    const pledge = await tx.insert(seedRuns).values({ name: 'pledge-products', rows: pledgeSeedProducts.length }).onConflictDoNothing().returning();
    if (pledge.length > 0) await seedPledgeProducts(tx, now);
    // The node tiers (docs/nodes-and-savings.md) in every environment; an operator's change is kept.
    await seedNodeTiers(tx, now);
    if (settings.env !== 'development') return;
    // The device model the demo devices and the device agent use (npm run device:agent).
    const models = await tx.insert(seedRuns).values({ name: 'device-models', rows: 1 }).onConflictDoNothing().returning();
    if (models.length > 0) await seedDefaultDeviceModel(tx, now);
    // The store's models and catalogue (docs/store.md), once: later the operator's to change.
    const store = await tx.insert(seedRuns).values({ name: 'store-products', rows: storeSeedProducts.length }).onConflictDoNothing().returning();
    if (store.length > 0) {
      await seedDeviceModels(tx, storeDeviceModels, now);
      await seedStoreProducts(tx, now);
    }
    const done = await tx.insert(seedRuns).values({ name: 'demo-notices', rows: demoNotices.length }).onConflictDoNothing().returning();
    if (done.length === 0) return;
    for (const [index, translations] of demoNotices.entries()) {
      // An hour apart, the welcome notice newest, so the list has a stable order.
      const publishedAt = new Date(now.getTime() - index * 3_600_000);
      // Seeded, not announced: no /ws push is due for them.
      await tx.insert(notices).values({ translations, publishedAt, pushedAt: publishedAt });
    }
  });
}
