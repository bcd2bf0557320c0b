// The mining contract (docs/economy.md): overview, miners, activation of devices, destroy mining,
// the power log, income per epoch with its formula inputs, vesting and claiming released income,
// device heartbeats and the operator's device, code and parameter API. Power travels as text with
// 2 decimals ("12.50"), amounts as exact decimal strings, like every amount of the contract.
import { z } from 'zod/mini';
import { envelope, pageQuery, paged, queryInt } from './common.ts';
import { paymentOrder } from './onchain.ts';
import { approvalItem } from './approval.ts';
import { route } from './route.ts';
import { amountSchema, amountText } from './wallet.ts';

/** Power in P with exactly 2 decimals, e.g. "10.00". */
export const powerText = z.string();

/** Miner status (docs/product.md section 4): 1 experience (trial), 2 paused, 3 permanent (running), 4 unknown. */
export const minerStatuses = [1, 2, 3, 4] as const;
export type MinerStatus = (typeof minerStatuses)[number];
export const minerKinds = ['device', 'destroy', 'trial', 'node', 'pledge'] as const;
export type MinerKind = (typeof minerKinds)[number];
/** Pay methods of docs/product.md section 3: balance, destroy / chain, credit limit (destroy quota). */
export const payMethods = ['balance', 'chain', 'credit'] as const;

/** Power log types: the six of docs/product.md section 3, then the changes mining itself makes. */
export const powerLogTypes = ['freeze', 'unlock', 'withdraw', 'buy_machine', 'buy_node', 'pledge', 'destroy', 'trial', 'activate', 'expire'] as const;
export type PowerLogType = (typeof powerLogTypes)[number];

/** The lines of an epoch's income (fund record type names, plus the budget cut). */
export const incomeLineTypes = ['device_income', 'destroy_profit', 'power_income', 'income_reduction'] as const;
export type IncomeLineType = (typeof incomeLineTypes)[number];

/** The economy numbers in force (the operator can change them from an epoch on). */
export const miningParamsData = z.object({
  epoch_seconds: z.int(),
  emission_base: amountText,
  halving_epochs: z.int(),
  immediate_bps: z.int(),
  vesting_epochs: z.int(),
  destroy_power_per_usdt: powerText,
  destroy_budget_multiplier: z.int(),
  destroy_min_usdt: amountText,
  trial_power: powerText,
  trial_epochs: z.int(),
  uptime_min_bps: z.int(),
  heartbeat_seconds: z.int(),
  /** The reference price's averaging window (900 s = the 15-minute average). */
  reference_window_seconds: z.int(),
});
export type MiningParamsData = z.infer<typeof miningParamsData>;

export const epochData = z.object({
  epoch: z.int(),
  starts_at: z.string(),
  ends_at: z.string(),
  emission: amountText,
});

export const miningOverview = z.object({
  /** My power that counts now (running devices, destroy miners with budget left, the trial). */
  power: powerText,
  network_power: powerText,
  /** An estimate of this epoch's income: payable emission × my power / network power, at the figures of now. */
  estimate_today: amountText,
  /** Mining income credited or vested so far, all epochs. */
  income_total: amountText,
  /** Earned but not yet released. */
  locked: amountText,
  /** Released and not yet claimed (`/receive`). */
  claimable: amountText,
  epoch: epochData,
  last_settled_epoch: z.nullable(z.int()),
  /**
   * USDT per NADI, the reference price: the market's time-weighted average over the window
   * (params.reference_window_seconds) ending at the start of the current minute, else the configured
   * price before the market has traded. Destroy previews use the same price.
   */
  reference_price: amountText,
  price_source: z.enum(['market', 'reference']),
  destroy_quota: amountText,
  /** The user's trial miner is running (status 1, its last epoch not yet past). */
  trial_available: z.boolean(),
  params: miningParamsData,
});
export type MiningOverview = z.infer<typeof miningOverview>;

export const minerItem = z.object({
  id: z.int(),
  kind: z.enum(minerKinds),
  status: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  base_power: powerText,
  gift_power: powerText,
  /** Destroy miners: earnings budget used and left, in USDT ("released / remaining power"). */
  released_power: amountText,
  remaining_power: amountText,
  pay_method: z.nullable(z.enum(payMethods)),
  /** Purchase / activation / destroy date. */
  created_at: z.string(),
  ends_epoch: z.nullable(z.int()),
  device: z.nullable(
    z.object({
      serial: z.string(),
      model: z.string(),
      online: z.boolean(),
      last_seen_at: z.nullable(z.string()),
      /** This epoch's uptime so far, basis points. */
      uptime_bps: z.int(),
    }),
  ),
  destroy: z.nullable(z.object({ nadi: amountText, price: amountText, usdt: amountText })),
});
export type MinerItem = z.infer<typeof minerItem>;
/**
 * The miners the mining screen lists (docs/nodes-and-savings.md): devices, destroy and trial miners.
 * Node and savings (pledge) miners carry their power too, but belong on "my nodes" and "my savings".
 */
export const listedMinerKinds = ['device', 'destroy', 'trial'] as const;
export type ListedMinerKind = (typeof listedMinerKinds)[number];
export const minersQuery = z.extend(pageQuery, { kind: z.optional(z.enum(listedMinerKinds)) });

/** Activation code: required, trimmed, case-insensitive (the server upper-cases it). */
export const activationCodeMax = 64;
export const activateBody = z.object({ code: z.string().check(z.trim(), z.minLength(1, 'activation.code_required'), z.maxLength(activationCodeMax)) });
export const activationStatuses = ['pending', 'success'] as const;
export const activationItem = z.object({
  id: z.int(),
  status: z.enum(activationStatuses),
  serial: z.string(),
  model: z.string(),
  created_at: z.string(),
  succeeded_at: z.nullable(z.string()),
});
export type ActivationItem = z.infer<typeof activationItem>;

/** How a destroy is paid: from the fund account, or from the wallet on chain (a payment order burned by payAndBurn). */
export const destroyPayMethods = ['balance', 'chain'] as const;
export type DestroyPayMethod = (typeof destroyPayMethods)[number];
/** `pay_method` chain: the wallet pays, so the fund account's balance is not checked. */
export const destroyPreviewBody = z.object({ amount: amountSchema, pay_method: z._default(z.enum(destroyPayMethods), 'balance') });
export const destroyPreviewData = z.object({
  /** NADI to destroy. */
  amount: amountText,
  /** The reference price the value and budget use; send it back to confirm. */
  price: amountText,
  price_source: z.enum(['market', 'reference']),
  value_usdt: amountText,
  power: powerText,
  budget_usdt: amountText,
  min_usdt: amountText,
  available: amountText,
});
export type DestroyPreview = z.infer<typeof destroyPreviewData>;
/** Confirms at the price the preview showed; another price now is QUOTE_EXPIRED (preview again). */
export const destroyBody = z.object({ amount: amountSchema, price: amountSchema });
export const destroyData = z.object({ miner: minerItem, balance: amountText, destroy_quota: amountText });

export const powerLogItem = z.object({
  id: z.int(),
  type: z.enum(powerLogTypes),
  before: powerText,
  after: powerText,
  change: powerText,
  miner_id: z.nullable(z.int()),
  created_at: z.string(),
});
export const powerLogQuery = z.extend(pageQuery, { type: z.optional(z.enum(powerLogTypes)) });

/** Everything needed to recompute one epoch's income by hand. */
export const incomeInputs = z.object({
  power: powerText,
  device_power: powerText,
  destroy_power: powerText,
  other_power: powerText,
  network_power: powerText,
  emission: amountText,
  payable: amountText,
  price: amountText,
  immediate_bps: z.int(),
  vesting_epochs: z.int(),
});
export const incomeEpochItem = z.object({
  epoch: z.int(),
  settled_at: z.string(),
  lines: z.array(z.object({ type: z.enum(incomeLineTypes), amount: amountText })),
  total: amountText,
  immediate: amountText,
  locked: amountText,
  released: amountText,
  inputs: incomeInputs,
});
export type IncomeEpochItem = z.infer<typeof incomeEpochItem>;
export const incomeQuery = z.extend(pageQuery, { type: z.optional(z.enum(incomeLineTypes)) });

export const vestingData = z.object({
  locked: amountText,
  claimable: amountText,
  claimed: amountText,
  /** Releases still to come, one per future epoch (at most vesting_epochs), from what is locked today. */
  schedule: z.array(z.object({ epoch: z.int(), amount: amountText })),
});
export type VestingData = z.infer<typeof vestingData>;
export const claimData = z.object({ amount: amountText, balance: amountText });

// ─── Devices ─────────────────────────────────────────────────────────────────────────────────

/**
 * The text a device signs for a heartbeat (Ed25519 over its UTF-8 bytes). `counter` grows with every
 * beat (replays refused), `timestamp` is Unix seconds (stale ones refused), `epoch` the current one.
 */
export function heartbeatMessage(b: { serial: string; epoch: number; counter: number; timestamp: number }): string {
  return `nadi-heartbeat:v1:${b.serial}:${b.epoch}:${b.counter}:${b.timestamp}`;
}
export const serialSchema = z.string().check(z.regex(/^[A-Za-z0-9-]{4,64}$/));
/** Ed25519 public key, 32 bytes as 64 hex digits. */
export const publicKeySchema = z.string().check(z.regex(/^[0-9a-fA-F]{64}$/));
export const heartbeatBody = z.object({
  serial: serialSchema,
  epoch: z.int().check(z.gte(0)),
  counter: z.int().check(z.gte(1), z.lte(Number.MAX_SAFE_INTEGER)),
  timestamp: z.int().check(z.gte(0)),
  /** Ed25519 signature, 64 bytes as 128 hex digits. */
  signature: z.string().check(z.regex(/^[0-9a-fA-F]{128}$/)),
});
export type HeartbeatBody = z.infer<typeof heartbeatBody>;
export const heartbeatData = z.object({ epoch: z.int(), beats: z.int(), uptime_bps: z.int(), activated: z.boolean() });
/** What a device needs to sign heartbeats: the server's time, the epoch numbering and the beat interval (Unix seconds). */
export const deviceClockData = z.object({
  now: z.int(),
  genesis: z.int(),
  epoch: z.int(),
  epoch_seconds: z.int(),
  heartbeat_seconds: z.int(),
  /** How far a heartbeat's timestamp may be from `now`. */
  skew_seconds: z.int(),
});
export type DeviceClockData = z.infer<typeof deviceClockData>;

export const deviceModelBody = z.object({
  code: z.string().check(z.regex(/^[A-Z0-9-]{2,32}$/)),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
  base_power: z.string().check(z.regex(/^[0-9]{1,9}(\.[0-9]{1,2})?$/)),
  gift_power: z._default(z.string().check(z.regex(/^[0-9]{1,9}(\.[0-9]{1,2})?$/)), '0'),
  price_usdt: amountSchema,
});
export const deviceModelItem = z.object({
  id: z.int(),
  code: z.string(),
  name: z.string(),
  base_power: powerText,
  gift_power: powerText,
  price_usdt: amountText,
});
export const registerDevicesBody = z.object({
  model_code: z.string().check(z.regex(/^[A-Z0-9-]{2,32}$/)),
  devices: z.array(z.object({ serial: serialSchema, public_key: publicKeySchema })).check(z.minLength(1), z.maxLength(1000)),
});
export const registerDevicesData = z.object({ registered: z.int() });
export const codeBatchBody = z.object({
  serials: z.array(serialSchema).check(z.minLength(1), z.maxLength(1000)),
  /** Codes unused by then expire; none means they never do. */
  expires_at: z.optional(z.iso.datetime()),
});
/** The codes in clear, once: "serial,code" lines after a header. Only their hashes are kept. */
export const codeBatchData = z.object({ batch_id: z.int(), count: z.int(), csv: z.string() });
export const revokeCodeBody = z.object({ serial: serialSchema });

export const miningRoutes = {
  overview: route({
    method: 'GET',
    path: '/api/v1/mining/overview',
    input: undefined,
    response: envelope(miningOverview),
    auth: true,
    summary: 'My power, the network, income, locked income, the current epoch and the economy numbers in force',
  }),
  miners: route({
    method: 'GET',
    path: '/api/v1/mining/miners',
    input: minersQuery,
    response: envelope(paged(minerItem)),
    auth: true,
    summary: 'My miners (device, destroy, trial; nodes and savings are on their own screens), newest first',
  }),
  activate: route({
    method: 'POST',
    path: '/api/v1/mining/activate',
    input: activateBody,
    response: envelope(activationItem),
    auth: true,
    summary: 'Bind a device by its activation code; pending until its first valid heartbeat',
  }),
  activations: route({
    method: 'GET',
    path: '/api/v1/mining/activations',
    input: pageQuery,
    response: envelope(paged(activationItem)),
    auth: true,
    summary: 'My activations, newest first',
  }),
  destroyPreview: route({
    method: 'POST',
    path: '/api/v1/mining/destroy/preview',
    input: destroyPreviewBody,
    response: envelope(destroyPreviewData),
    auth: true,
    summary: 'What destroying an amount of NADI would give: value, power, earnings budget',
  }),
  destroy: route({
    method: 'POST',
    path: '/api/v1/mining/destroy',
    input: destroyBody,
    response: envelope(destroyData),
    auth: true,
    summary: 'Destroy NADI from the fund account for a destroy miner (Idempotency-Key header accepted)',
    limitClass: 'money',
  }),
  destroyOrder: route({
    method: 'POST',
    path: '/api/v1/mining/destroy/order',
    input: destroyBody,
    response: envelope(paymentOrder),
    auth: true,
    summary: 'A payment order to destroy NADI from the wallet on chain (PaymentGateway.payAndBurn); the miner comes when the payment is confirmed',
    limitClass: 'money',
  }),
  powerLog: route({
    method: 'GET',
    path: '/api/v1/mining/powerLog',
    input: powerLogQuery,
    response: envelope(paged(powerLogItem)),
    auth: true,
    summary: 'Every change of my power, newest first',
  }),
  income: route({
    method: 'GET',
    path: '/api/v1/mining/income',
    input: incomeQuery,
    response: envelope(paged(incomeEpochItem)),
    auth: true,
    summary: 'My mining income per settled epoch with its formula inputs',
  }),
  incomeDetail: route({
    method: 'GET',
    path: '/api/v1/mining/incomeDetail',
    input: z.object({ epoch: queryInt(0, 2 ** 31 - 1) }),
    response: envelope(incomeEpochItem),
    auth: true,
    summary: 'One epoch of my income with its formula inputs',
  }),
  vesting: route({
    method: 'GET',
    path: '/api/v1/mining/vesting',
    input: undefined,
    response: envelope(vestingData),
    auth: true,
    summary: 'Locked income, what is claimable and the release schedule',
  }),
  claim: route({
    method: 'POST',
    path: '/api/v1/mining/claim',
    input: z.strictObject({}),
    response: envelope(claimData),
    auth: true,
    summary: 'Claim released income into the fund account (Idempotency-Key header accepted)',
    limitClass: 'money',
  }),
};

/** Console filters of the device list: activation (bound to an owner or not) or online now. */
export const operatorDeviceStatuses = ['unbound', 'activated', 'online', 'offline'] as const;
/**
 * Console filter by activation code: `without` has no live code (none yet, or only a revoked one, so
 * a batch may give it one); `issued` (unused), `used` (bound) and `revoked` are the code's state.
 */
export const operatorDeviceCodeFilters = ['without', 'issued', 'used', 'revoked'] as const;
export const activationCodeStates = ['issued', 'used', 'revoked'] as const;
export const operatorDevicesQuery = z.extend(pageQuery, {
  model: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(64))),
  status: z.optional(z.enum(operatorDeviceStatuses)),
  code: z.optional(z.enum(operatorDeviceCodeFilters)),
});
export const operatorDeviceItem = z.object({
  serial: z.string(),
  model: z.string(),
  model_name: z.string(),
  /** The owner's masked address (0x12ab…cdef); null before activation. */
  owner: z.nullable(z.string()),
  activated: z.boolean(),
  bound_at: z.nullable(z.string()),
  online: z.boolean(),
  last_heartbeat_at: z.nullable(z.string()),
  /** The last settled mining epoch and the device's uptime in it (basis points; 0 without beats). */
  settled_epoch: z.nullable(z.int()),
  settled_uptime_bps: z.nullable(z.int()),
  /** The state of the device's activation code; null when none was ever issued. */
  code_state: z.nullable(z.enum(activationCodeStates)),
});
export type OperatorDeviceItem = z.infer<typeof operatorDeviceItem>;

/**
 * A generated batch of activation codes, never the codes. `count` is how many the batch generated;
 * `issued`, `used` and `revoked` count its codes now (a revoked code given a new one in a later
 * batch belongs to that batch from then on).
 */
export const operatorCodeBatchItem = z.object({
  id: z.int(),
  /** The operator's wallet address; null if the batch has no recorded creator. */
  created_by: z.nullable(z.string()),
  created_at: z.string(),
  count: z.int(),
  issued: z.int(),
  used: z.int(),
  revoked: z.int(),
  expires_at: z.nullable(z.string()),
});
export type OperatorCodeBatchItem = z.infer<typeof operatorCodeBatchItem>;

export const deviceRoutes = {
  clock: route({
    method: 'GET',
    path: '/api/v1/device/clock',
    input: undefined,
    response: envelope(deviceClockData),
    auth: false,
    summary: 'A device reads the epoch numbering and the heartbeat interval (the epoch is floor((now - genesis) / epoch_seconds))',
  }),
  heartbeat: route({
    method: 'POST',
    path: '/api/v1/device/heartbeat',
    input: heartbeatBody,
    response: envelope(heartbeatData),
    auth: false,
    summary: 'A device proves it is online: a heartbeat signed with its Ed25519 key',
    limitClass: 'background',
  }),
  operatorModels: route({
    method: 'GET',
    path: '/api/v1/operator/device/models',
    input: undefined,
    response: envelope(z.array(deviceModelItem)),
    auth: true,
    role: 'viewer',
    summary: 'Operators: device models',
  }),
  operatorDevices: route({
    method: 'GET',
    path: '/api/v1/operator/devices',
    input: operatorDevicesQuery,
    response: envelope(paged(operatorDeviceItem)),
    auth: true,
    role: 'viewer',
    summary: 'Operators: devices, newest first, by model code and status, with owner, heartbeat and last settled uptime',
  }),
  operatorSaveModel: route({
    method: 'POST',
    path: '/api/v1/operator/device/model',
    input: deviceModelBody,
    response: envelope(deviceModelItem),
    auth: true,
    role: 'admin',
    summary: 'Operators: add or change a device model',
  }),
  operatorRegister: route({
    method: 'POST',
    path: '/api/v1/operator/device/register',
    input: registerDevicesBody,
    response: envelope(registerDevicesData),
    auth: true,
    role: 'operator',
    summary: 'Operators: register devices (serial and Ed25519 public key)',
  }),
  operatorCodeBatch: route({
    method: 'POST',
    path: '/api/v1/operator/activation/batch',
    input: codeBatchBody,
    response: envelope(codeBatchData),
    auth: true,
    role: 'operator',
    summary: 'Operators: generate one activation code per device; the CSV is shown once, only hashes are kept',
  }),
  operatorCodeBatches: route({
    method: 'GET',
    path: '/api/v1/operator/activation/batches',
    input: pageQuery,
    response: envelope(paged(operatorCodeBatchItem)),
    auth: true,
    role: 'viewer',
    summary: 'Operators: activation code batches, newest first, with their creator and counts (never the codes)',
  }),
  operatorRevokeCode: route({
    method: 'POST',
    path: '/api/v1/operator/activation/revoke',
    input: revokeCodeBody,
    response: envelope(z.object({ revoked: z.boolean() })),
    auth: true,
    role: 'operator',
    summary: 'Operators: revoke the unused code of a device',
  }),
};

// ─── Economy parameters (operators) ──────────────────────────────────────────────────────────

/**
 * The numbers an operator may change, each from an epoch on (never retroactively). Amounts are base
 * units, power centi-power, rates basis points, lengths epochs or seconds, all as digit strings.
 */
export const economyParamNames = [
  'emissionBase',
  'halvingEpochs',
  'immediateBps',
  'vestingEpochs',
  'destroyPowerPerUsdt',
  'destroyBudgetMultiplier',
  'destroyMinUsdt',
  'trialPower',
  'trialEpochs',
  'uptimeMinBps',
  'heartbeatSkewSeconds',
  'referenceWindowSeconds',
  // The store's (docs/store.md): the margin kept as fees, the device direct reward to the referrer.
  'storeMarginBps',
  'deviceDirectRewardBps',
  // The node fee dividend's share of the fees' epoch inflow (docs/nodes-and-savings.md).
  'nodeDividendBps',
  // The team's (docs/team.md): share income, the level table, power level income, the sign-in awards.
  'teamShareLevel1Bps',
  'teamShareLevel2Bps',
  'teamLevel1Usdt',
  'teamLevel2Usdt',
  'teamLevel3Usdt',
  'teamLevel4Usdt',
  'teamLevel5Usdt',
  'teamLevel1Directs',
  'teamLevel2Directs',
  'teamLevel3Directs',
  'teamLevel4Directs',
  'teamLevel5Directs',
  'teamLevel1RateBps',
  'teamLevel2RateBps',
  'teamLevel3RateBps',
  'teamLevel4RateBps',
  'teamLevel5RateBps',
  'teamPowerLevelBps',
  'teamPowerLevelMin',
  'signInDay1Nadi',
  'signInDay2Nadi',
  'signInDay3Nadi',
  'signInDay4Nadi',
  'signInDay5Nadi',
  'signInDay6Nadi',
  'signInDay7Nadi',
] as const;
export type EconomyParamName = (typeof economyParamNames)[number];
export const setEconomyParamBody = z.object({
  name: z.enum(economyParamNames),
  value: z.string().check(z.regex(/^(0|[1-9][0-9]{0,29})$/)),
  /** The first epoch the value is in force: after the current one. */
  effective_epoch: z.int().check(z.gte(1), z.lte(2 ** 31 - 1)),
  /** Why (required: blank is REASON_REQUIRED); the change waits for a second admin's approval. */
  reason: z.optional(z.string().check(z.trim(), z.maxLength(500))),
});
export const economyParamItem = z.object({ name: z.enum(economyParamNames), value: z.string(), effective_epoch: z.int() });
export const economyParamsData = z.object({
  epoch: z.int(),
  /** Every parameter's value in force in the current epoch. */
  in_force: z.array(economyParamItem),
  /** Changes that take effect in a later epoch. */
  scheduled: z.array(economyParamItem),
});

export const economyRoutes = {
  operatorParams: route({
    method: 'GET',
    path: '/api/v1/operator/economy/params',
    input: undefined,
    response: envelope(economyParamsData),
    auth: true,
    role: 'viewer',
    summary: 'Operators: the economy numbers in force and the changes scheduled',
  }),
  operatorSetParam: route({
    method: 'POST',
    path: '/api/v1/operator/economy/param',
    input: setEconomyParamBody,
    response: envelope(approvalItem),
    auth: true,
    role: 'admin',
    summary: 'Admins: request a change of an economy number from a later epoch on (never retroactively); a second admin approves it (four-eyes)',
  }),
};
