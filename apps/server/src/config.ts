import { z } from 'zod';
import { environments, type Environment } from '@nadi/api/config';
import type { LimitClass } from '@nadi/api/route';
import { hardhatDevPrivateKeys } from '@nadi/chain/demo-accounts';
import { devDepositXpub } from '@nadi/chain/hd';

/**
 * Every setting comes from the environment. Development has embedded defaults so `npm start`
 * works on a fresh machine; staging and production must name each setting, and a missing or
 * wrong one stops the start with a message naming it.
 */
const urlString = z.string().url();
const addressString = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address');

// One parser per kind of value, so a kind is read the same way wherever it appears.

/** A whole number in [min, max], written in digits only ("60000", not "6e4" or "60_000"). */
export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER) {
  return z
    .string()
    .regex(/^[0-9]+$/, 'must be a whole number written in digits')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}
const positiveInt = wholeNumber(1);

/** A non-negative decimal with at most 18 decimals (money and market parameters), kept as its string. */
export function decimalString(example: string) {
  return z.string().regex(/^(0|[1-9][0-9]*)(\.[0-9]{1,18})?$/, `must be a decimal number such as ${example}`);
}

/** A switch: `on` or `off`, the only spelling (`true`, `1`, `yes` are refused, naming the variable). */
export const onOff = z.enum(['on', 'off'], { error: 'must be on or off' }).transform((value) => value === 'on');

const rawSchema = z.object({
  APP_ENV: z.enum(environments).optional(),
  NODE_ENV: z.string().optional(),
  HOST: z.string().default('127.0.0.1'),
  PORT: wholeNumber(0, 65_535).default(8080),
  PUBLIC_URL: urlString.optional(),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('.data'),
  REDIS_URL: z.string().optional(),
  RPC_URL: urlString.optional(),
  /** The RPC the browser may use; the server's own RPC_URL may carry a provider key and stays private. */
  PUBLIC_RPC_URL: z.string().optional(),
  CHAIN_ID: positiveInt.optional(),
  CHAIN_NAME: z.string().optional(),
  EXPLORER_URL: urlString.optional(),
  NADI_ADDRESS: addressString.optional(),
  USDT_ADDRESS: addressString.optional(),
  SIWE_DOMAIN: z.string().min(1).optional(),
  ROOT_ADDRESS: addressString.optional(),
  ROOT_INVITE_CODE: z
    .string()
    .regex(/^[A-Z0-9]{6,12}$/, 'must be 6 to 12 upper-case letters or digits')
    .optional(),
  WALLETCONNECT_PROJECT_ID: z.string().optional(),
  NODE_DEADLINE: z.string().datetime({ offset: true }).optional(),
  APP_TITLE: z.string().default('NADI'),
  SIGN_MESSAGE: z.string().default('Welcome to NADI. Sign this message to prove you own this wallet; it costs no gas.'),
  SESSION_IDLE_MS: positiveInt.default(360_000),
  LOGIN_MESSAGE_TTL_MS: positiveInt.default(600_000),
  // Abuse limits per route class, per client address and per signed-in user (docs/limits.md).
  // Unset, they take the defaults in limitDefaults (ten times those in development).
  /** The window of every class but trade's. */
  RATE_LIMIT_WINDOW_MS: positiveInt.default(60_000),
  RATE_LIMIT_SIGN_IN_PER_IP: positiveInt.optional(),
  RATE_LIMIT_SIGN_IN_PER_USER: positiveInt.optional(),
  RATE_LIMIT_MONEY_PER_IP: positiveInt.optional(),
  RATE_LIMIT_MONEY_PER_USER: positiveInt.optional(),
  /** The trade class counts in a shorter window of its own: an exchange's pace, ten orders a second. */
  RATE_LIMIT_TRADE_WINDOW_MS: positiveInt.default(10_000),
  RATE_LIMIT_TRADE_PER_IP: positiveInt.optional(),
  RATE_LIMIT_TRADE_PER_USER: positiveInt.optional(),
  RATE_LIMIT_WRITE_PER_IP: positiveInt.optional(),
  RATE_LIMIT_WRITE_PER_USER: positiveInt.optional(),
  RATE_LIMIT_READ_PER_IP: positiveInt.optional(),
  RATE_LIMIT_READ_PER_USER: positiveInt.optional(),
  RATE_LIMIT_BACKGROUND_PER_IP: positiveInt.optional(),
  RATE_LIMIT_BACKGROUND_PER_USER: positiveInt.optional(),
  RATE_LIMIT_SOCKET_PER_IP: positiveInt.optional(),
  RATE_LIMIT_SOCKET_PER_USER: positiveInt.optional(),
  // Per-route overrides (routeLimitDefaults): the sign-in routes' per-address budgets.
  /** auth/login, per address. */
  RATE_LIMIT_LOGIN_PER_IP: positiveInt.optional(),
  /** auth/loginMessage and auth/isRegister, each per address. */
  RATE_LIMIT_NONCE_PER_IP: positiveInt.optional(),
  SOCKET_CONNECTIONS_PER_IP: positiveInt.optional(),
  SOCKET_CONNECTIONS_PER_USER: positiveInt.optional(),
  /** USDT per NADI until the spot market trades; seeded once, then the operator's to change. */
  NADI_REFERENCE_PRICE: decimalString('0.5').default('0.5'),
  EXCHANGE_FEE_BPS: wholeNumber(0, 1000).default(30),
  // Spot market NADI/USDT (docs/market.md). Seeded into app_settings once; the database wins after.
  MARKET_TICK_SIZE: decimalString('0.0001').default('0.0001'),
  MARKET_LOT_SIZE: decimalString('0.0001').default('0.01'),
  MARKET_MIN_NOTIONAL: decimalString('0.0001').default('1'),
  MARKET_MAKER_FEE_BPS: wholeNumber(0, 1000).default(10),
  MARKET_TAKER_FEE_BPS: wholeNumber(0, 1000).default(20),
  /** Development: each new account receives demo funds (a data adjustment from the treasury). */
  DEMO_GRANT: onOff.optional(),
  /** Development: demo trading history and a market-maker bot (docs/market.md, "Demo market"). */
  DEMO_MARKET: onOff.optional(),
  TRUST_PROXY: onOff.default(false),
  // On-chain money (deposits, withdrawals, wallet payments).
  /** Extended PUBLIC key (xpub) for deposit addresses: address i is its child i (i = user id). */
  DEPOSIT_XPUB: z
    .string()
    .regex(/^xpub[1-9A-HJ-NP-Za-km-z]{100,112}$/, 'must be an extended public key (xpub…)')
    .optional(),
  PAYMENT_GATEWAY_ADDRESS: addressString.optional(),
  /**
   * The ProofPublisher contract (docs/transparency.md, "Publication"), owned by the hot wallet, which
   * publishes each snapshot's roots there. Unset: nothing is published.
   */
  PROOF_PUBLISHER_ADDRESS: addressString.optional(),
  /** The hot wallet that sends withdrawals: 0x + 64 hex. Development uses the local chain's account #0. */
  HOT_WALLET_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x followed by 64 hex digits')
    .optional(),
  /** Wallet addresses with the operator role (comma-separated); they review withdrawals. */
  OPERATOR_ADDRESSES: z
    .string()
    .regex(/^\s*0x[0-9a-fA-F]{40}(\s*,\s*0x[0-9a-fA-F]{40})*\s*$/, 'must be comma-separated 0x addresses')
    .optional(),
  /** Blocks on top of a deposit, withdrawal or payment before it counts (docs/product.md section 9: 3). */
  CHAIN_CONFIRMATIONS: wholeNumber(1, 1000).default(3),
  CHAIN_POLL_MS: positiveInt.optional(),
  /** The most blocks one log query covers. */
  CHAIN_SCAN_BLOCKS_MAX: wholeNumber(1, 10_000).default(500),
  /** Where the scanners start on an empty database (default: the chain's head at first start; 0 in development). */
  CHAIN_START_BLOCK: wholeNumber(0).optional(),
  /** Run the deposit/payment scanners and the withdrawal sender in this process. */
  CHAIN_WORKERS: onOff.default(true),
  WITHDRAW_MIN: decimalString('1').default('1'),
  WITHDRAW_FEE: decimalString('0.5').default('0.5'),
  /**
   * Four-eyes (docs/operator.md): approving a withdrawal of at least this many NADI (the only asset
   * withdrawn) takes a second operator. Compared per asset, in NADI, not valued at a price, so the
   * threshold cannot move with the market.
   */
  FOUR_EYES_WITHDRAW_NADI: decimalString('10000').default('10000'),
  // Mining (docs/economy.md). An epoch is one UTC day in production; development uses 600 s so a
  // newcomer sees income arrive, tests a few seconds on a controllable clock.
  EPOCH_SECONDS: wholeNumber(1, 86_400).optional(),
  /** How often a device signs a heartbeat (seconds); uptime is counted in these beats. */
  HEARTBEAT_SECONDS: wholeNumber(1, 3_600).optional(),
  /** Run the epoch settlement job in this process (one instance settles at a time: an advisory lock). */
  MINING_JOBS: onOff.default(true),
  // Store (docs/store.md). How long an order paid from the wallet holds its units before it expires.
  STORE_PAYMENT_MINUTES: wholeNumber(1, 1_440).default(30),
  /** Run the store job (expiring unpaid orders, completing unconfirmed ones) in this process (one instance at a time: an advisory lock). */
  STORE_JOBS: onOff.default(true),
  // Nodes (docs/nodes-and-savings.md). How long a node paid from the wallet holds its unit of quota.
  NODE_PAYMENT_MINUTES: wholeNumber(1, 1_440).default(30),
  /** Run the node job (releasing the quota of unpaid wallet orders) in this process (one instance at a time: an advisory lock). */
  NODE_JOBS: onOff.default(true),
  /**
   * The request envelope (docs/envelope.md): every API request sealed to the server's public key.
   * On by default outside development; `npm start` runs with it on when ENCRYPTION=on.
   */
  ENCRYPTION: onOff.optional(),
  /**
   * The envelope's keys, "kid:seed" comma-separated, the first the current one (the rest still open
   * requests during a rotation); a seed is 32 random bytes in base64url. Development without it keeps
   * one generated key in DATA_DIR.
   */
  ENVELOPE_KEYS: z
    .string()
    .regex(
      /^\s*[A-Za-z0-9_-]{1,32}:[A-Za-z0-9_-]{43,}(\s*,\s*[A-Za-z0-9_-]{1,32}:[A-Za-z0-9_-]{43,})*\s*$/,
      'must be comma-separated kid:seed pairs (seed: 32 bytes base64url)',
    )
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  /** The built console app (apps/admin), served under /admin. */
  ADMIN_DIST: z.string().optional(),
});

/**
 * Every budget variable of the abuse limits (a class's or a route's, per address or per user, open
 * sockets): what a test or a bench sets to lift the limits out of its way.
 */
export const limitBudgetVariables: readonly string[] = Object.keys(rawSchema.shape).filter((name) =>
  /^(RATE_LIMIT_\w+|SOCKET_CONNECTIONS)_PER_(IP|USER)$/.test(name),
);

/** Settings a non-development environment must provide explicitly. */
const requiredOutsideDevelopment = [
  'PUBLIC_URL',
  'DATABASE_URL',
  'RPC_URL',
  'CHAIN_ID',
  'NADI_ADDRESS',
  'SIWE_DOMAIN',
  'ROOT_ADDRESS',
  'ROOT_INVITE_CODE',
  'NODE_DEADLINE',
  'DEPOSIT_XPUB',
  'PAYMENT_GATEWAY_ADDRESS',
  'HOT_WALLET_PRIVATE_KEY',
  'OPERATOR_ADDRESSES',
] as const;

/** A budget in one window: requests per client address and per signed-in user. */
export interface ClassLimit {
  perIp: number;
  perUser: number;
}

/** A budget with its window (ms). */
export interface Budget extends ClassLimit {
  windowMs: number;
}

/** The request classes of docs/limits.md: the contracts' limit classes and the socket upgrades. */
export type LimitedClass = LimitClass | 'socket';

export interface LimitSettings {
  classes: Record<LimitedClass, Budget>;
  /**
   * Per-route overrides, by contract path: such a route is counted in a budget of its own INSTEAD of
   * its class's (each request in exactly one budget per address and one per user), with the class's
   * window and the numbers the override does not name.
   */
  routes: Record<string, Partial<ClassLimit>>;
  /** Open sockets at once, per client address and per user (each instance counts its own). */
  socketConnections: ClassLimit;
}

/**
 * Production's numbers per window, chosen in docs/limits.md: a minute for every class but trade,
 * whose window is ten seconds (an exchange's pace: ten orders a second, bursts of a hundred).
 * Development multiplies them by ten: there one machine is every user (the browser suite, the demo
 * devices, the console).
 */
export const limitDefaults: Record<LimitedClass, ClassLimit> = {
  signIn: { perIp: 120, perUser: 30 },
  money: { perIp: 300, perUser: 30 },
  trade: { perIp: 1_000, perUser: 100 },
  write: { perIp: 600, perUser: 60 },
  read: { perIp: 3_000, perUser: 300 },
  background: { perIp: 12_000, perUser: 600 },
  socket: { perIp: 120, perUser: 20 },
};

/**
 * Per-route overrides (docs/limits.md, "Per-route budgets"): narrower per-address budgets than the
 * class's, in the class's window; the per-user budget is the class's, counted apart. Each was a
 * @fastify/rate-limit budget of the route (per address, per minute) before the one limiter.
 */
export const routeLimitDefaults: Record<string, { perIp: number }> = {
  // Sign-in: a nonce or a login attempt per two seconds from one address (docs/sign-in.md).
  '/api/v1/auth/login': { perIp: 30 },
  '/api/v1/auth/loginMessage': { perIp: 30 },
  '/api/v1/auth/isRegister': { perIp: 30 },
  // Orders that hold something while unpaid: stock, a node's unit of quota, a row.
  '/api/v1/machine/order': { perIp: 30 },
  '/api/v1/node/buy': { perIp: 30 },
  '/api/v1/mining/destroy/order': { perIp: 30 },
  '/api/v1/payment/testOrder': { perIp: 30 },
};
export const socketConnectionDefaults: ClassLimit = { perIp: 200, perUser: 10 };
const developmentLimitFactor = 10;

/** Variables renamed when the per-route limits joined the class limiter: a start with one fails. */
const renamedVariables: Record<string, string> = {
  RATE_LIMIT_LOGIN_PER_MINUTE: 'RATE_LIMIT_LOGIN_PER_IP',
  RATE_LIMIT_NONCE_PER_MINUTE: 'RATE_LIMIT_NONCE_PER_IP',
};

export interface AppSettings {
  env: Environment;
  host: string;
  port: number;
  publicUrl: string;
  databaseUrl: string | null;
  dataDir: string;
  redisUrl: string | null;
  rpcUrl: string;
  publicRpcUrl: string;
  chainId: number;
  chainName: string;
  explorerUrl: string | null;
  nadiAddress: string | null;
  usdtAddress: string | null;
  /** Hosts (host[:port]) a sign-in message may name; the first is the canonical one. */
  siweDomains: string[];
  rootAddress: string;
  rootInviteCode: string;
  walletConnectProjectId: string | null;
  /** Overrides the seeded deadline in the database when set. */
  nodeDeadline: string | null;
  title: string;
  signMessage: string;
  sessionIdleMs: number;
  loginMessageTtlMs: number;
  limits: LimitSettings;
  trustProxy: boolean;
  nadiReferencePrice: string;
  exchangeFeeBps: number;
  market: { tickSize: string; lotSize: string; minNotional: string; makerFeeBps: number; takerFeeBps: number };
  isDemoGrantOn: boolean;
  isDemoMarketOn: boolean;
  depositXpub: string;
  paymentGatewayAddress: string | null;
  /** Where snapshots' roots are published (null: not published). */
  proofPublisherAddress: string | null;
  /** Never logged or sent anywhere; only the withdrawal sender, the proof publisher and reserve capture read it. */
  hotWalletPrivateKey: `0x${string}`;
  /** Lower-case addresses. */
  operatorAddresses: string[];
  confirmations: number;
  chainPollMs: number;
  chainScanBlocksMax: number;
  chainStartBlock: number | null;
  isChainWorkersOn: boolean;
  withdrawMin: string;
  withdrawFee: string;
  /** Decimal NADI: a withdrawal of at least this needs a second operator's approval. */
  fourEyesWithdrawNadi: string;
  /** Length of a mining epoch in seconds (86,400 outside development unless set). */
  epochSeconds: number;
  heartbeatSeconds: number;
  isMiningJobsOn: boolean;
  /** An unpaid (wallet) store order's hold on its units, in minutes. */
  storePaymentMinutes: number;
  isStoreJobsOn: boolean;
  /** An unpaid (wallet) node order's hold on its unit of quota, in minutes. */
  nodePaymentMinutes: number;
  isNodeJobsOn: boolean;
  /** Test orders for the payment flow: everywhere but production. */
  isTestOrderOn: boolean;
  /** Whether API requests must be sealed (docs/envelope.md). */
  isEncryptionOn: boolean;
  /** The envelope's keys (current first); null in development without ENVELOPE_KEYS: a key kept in DATA_DIR. */
  envelopeKeys: { kid: string; seed: string }[] | null;
  logLevel: string;
  webDist: string | null;
  adminDist: string | null;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The first of the local chain's well-known test accounts; never a real-network default. */
const hardhatAccount0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

export function loadSettings(env: Record<string, string | undefined> = process.env): AppSettings {
  const parsed = rawSchema.safeParse(env);
  const renamed = Object.keys(renamedVariables).filter((name) => env[name] !== undefined);
  if (!parsed.success || renamed.length > 0) {
    const lines = (parsed.error?.issues ?? []).map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    for (const name of renamed) lines.push(`  - ${name}: renamed to ${renamedVariables[name]} (docs/limits.md)`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const raw = parsed.data;
  const appEnv: Environment = raw.APP_ENV ?? (raw.NODE_ENV === 'production' ? 'production' : 'development');
  if (appEnv !== 'development') {
    const missing: string[] = requiredOutsideDevelopment.filter((key) => !raw[key]);
    // Encryption is on by default here, and then needs its keys.
    if ((raw.ENCRYPTION ?? true) && !raw.ENVELOPE_KEYS) missing.push('ENVELOPE_KEYS');
    if (missing.length > 0) {
      const lines = missing.map((key) => `  - ${key}: required when APP_ENV is ${appEnv}`);
      throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
    }
    if (raw.DEMO_MARKET === true)
      throw new ConfigError(`Invalid configuration:\n  - DEMO_MARKET: the demo market runs only in development, not when APP_ENV is ${appEnv}`);
  }
  const port = raw.PORT;
  const publicUrl = raw.PUBLIC_URL ?? `http://localhost:${port}`;
  return {
    env: appEnv,
    host: raw.HOST,
    port,
    publicUrl: publicUrl.replace(/\/$/, ''),
    databaseUrl: raw.DATABASE_URL ?? null,
    dataDir: raw.DATA_DIR,
    redisUrl: raw.REDIS_URL ?? null,
    rpcUrl: raw.RPC_URL ?? 'http://127.0.0.1:8545',
    publicRpcUrl: raw.PUBLIC_RPC_URL ?? (appEnv === 'development' ? '/rpc' : 'https://bsc-dataseed.bnbchain.org'),
    chainId: raw.CHAIN_ID ?? 31_337,
    chainName: raw.CHAIN_NAME ?? (appEnv === 'development' ? 'NADI Local' : 'BNB Smart Chain'),
    explorerUrl: raw.EXPLORER_URL ?? null,
    nadiAddress: raw.NADI_ADDRESS ?? null,
    usdtAddress: raw.USDT_ADDRESS ?? null,
    siweDomains: siweDomains(raw.SIWE_DOMAIN, publicUrl, port, appEnv),
    rootAddress: raw.ROOT_ADDRESS ?? hardhatAccount0,
    rootInviteCode: raw.ROOT_INVITE_CODE ?? 'NADI2026',
    walletConnectProjectId: raw.WALLETCONNECT_PROJECT_ID || null,
    nodeDeadline: raw.NODE_DEADLINE ?? null,
    title: raw.APP_TITLE,
    signMessage: raw.SIGN_MESSAGE,
    sessionIdleMs: raw.SESSION_IDLE_MS,
    loginMessageTtlMs: raw.LOGIN_MESSAGE_TTL_MS,
    limits: limitSettings(raw, appEnv),
    trustProxy: raw.TRUST_PROXY,
    nadiReferencePrice: raw.NADI_REFERENCE_PRICE,
    exchangeFeeBps: raw.EXCHANGE_FEE_BPS,
    market: {
      tickSize: raw.MARKET_TICK_SIZE,
      lotSize: raw.MARKET_LOT_SIZE,
      minNotional: raw.MARKET_MIN_NOTIONAL,
      makerFeeBps: raw.MARKET_MAKER_FEE_BPS,
      takerFeeBps: raw.MARKET_TAKER_FEE_BPS,
    },
    isDemoGrantOn: appEnv === 'development' && (raw.DEMO_GRANT ?? true),
    isDemoMarketOn: appEnv === 'development' && (raw.DEMO_MARKET ?? true),
    depositXpub: raw.DEPOSIT_XPUB ?? devDepositXpub(),
    paymentGatewayAddress: raw.PAYMENT_GATEWAY_ADDRESS ?? null,
    proofPublisherAddress: raw.PROOF_PUBLISHER_ADDRESS ?? null,
    hotWalletPrivateKey: (raw.HOT_WALLET_PRIVATE_KEY ?? hardhatDevPrivateKeys[0]) as `0x${string}`,
    operatorAddresses: (raw.OPERATOR_ADDRESSES ?? (appEnv === 'development' ? hardhatAccount0 : ''))
      .split(',')
      .map((a) => a.trim().toLowerCase())
      .filter(Boolean),
    confirmations: raw.CHAIN_CONFIRMATIONS,
    chainPollMs: raw.CHAIN_POLL_MS ?? (appEnv === 'development' ? 1_000 : 3_000),
    chainScanBlocksMax: raw.CHAIN_SCAN_BLOCKS_MAX,
    chainStartBlock: raw.CHAIN_START_BLOCK ?? (appEnv === 'development' ? 0 : null),
    isChainWorkersOn: raw.CHAIN_WORKERS,
    withdrawMin: raw.WITHDRAW_MIN,
    withdrawFee: raw.WITHDRAW_FEE,
    fourEyesWithdrawNadi: raw.FOUR_EYES_WITHDRAW_NADI,
    epochSeconds: raw.EPOCH_SECONDS ?? (appEnv === 'development' ? 600 : 86_400),
    heartbeatSeconds: raw.HEARTBEAT_SECONDS ?? (appEnv === 'development' ? 20 : 60),
    isMiningJobsOn: raw.MINING_JOBS,
    storePaymentMinutes: raw.STORE_PAYMENT_MINUTES,
    isStoreJobsOn: raw.STORE_JOBS,
    nodePaymentMinutes: raw.NODE_PAYMENT_MINUTES,
    isNodeJobsOn: raw.NODE_JOBS,
    isTestOrderOn: appEnv !== 'production',
    isEncryptionOn: raw.ENCRYPTION ?? appEnv !== 'development',
    envelopeKeys: raw.ENVELOPE_KEYS
      ? raw.ENVELOPE_KEYS.split(',').map((pair) => {
          const [kid = '', seed = ''] = pair.trim().split(':');
          return { kid, seed };
        })
      : null,
    logLevel: raw.LOG_LEVEL,
    webDist: raw.WEB_DIST ?? null,
    adminDist: raw.ADMIN_DIST ?? null,
  };
}

function limitSettings(raw: z.output<typeof rawSchema>, env: Environment): LimitSettings {
  const factor = env === 'development' ? developmentLimitFactor : 1;
  const windowMs = raw.RATE_LIMIT_WINDOW_MS;
  const pick = (ip: number | undefined, user: number | undefined, defaults: ClassLimit): ClassLimit => ({
    perIp: ip ?? defaults.perIp * factor,
    perUser: user ?? defaults.perUser * factor,
  });
  const classes: Record<LimitedClass, Budget> = {
    signIn: { windowMs, ...pick(raw.RATE_LIMIT_SIGN_IN_PER_IP, raw.RATE_LIMIT_SIGN_IN_PER_USER, limitDefaults.signIn) },
    money: { windowMs, ...pick(raw.RATE_LIMIT_MONEY_PER_IP, raw.RATE_LIMIT_MONEY_PER_USER, limitDefaults.money) },
    trade: { windowMs: raw.RATE_LIMIT_TRADE_WINDOW_MS, ...pick(raw.RATE_LIMIT_TRADE_PER_IP, raw.RATE_LIMIT_TRADE_PER_USER, limitDefaults.trade) },
    write: { windowMs, ...pick(raw.RATE_LIMIT_WRITE_PER_IP, raw.RATE_LIMIT_WRITE_PER_USER, limitDefaults.write) },
    read: { windowMs, ...pick(raw.RATE_LIMIT_READ_PER_IP, raw.RATE_LIMIT_READ_PER_USER, limitDefaults.read) },
    background: { windowMs, ...pick(raw.RATE_LIMIT_BACKGROUND_PER_IP, raw.RATE_LIMIT_BACKGROUND_PER_USER, limitDefaults.background) },
    socket: { windowMs, ...pick(raw.RATE_LIMIT_SOCKET_PER_IP, raw.RATE_LIMIT_SOCKET_PER_USER, limitDefaults.socket) },
  };
  const routeIp: Record<string, number | undefined> = {
    '/api/v1/auth/login': raw.RATE_LIMIT_LOGIN_PER_IP,
    '/api/v1/auth/loginMessage': raw.RATE_LIMIT_NONCE_PER_IP,
    '/api/v1/auth/isRegister': raw.RATE_LIMIT_NONCE_PER_IP,
  };
  const routes = Object.fromEntries(Object.entries(routeLimitDefaults).map(([path, defaults]) => [path, { perIp: routeIp[path] ?? defaults.perIp * factor }]));
  return {
    classes,
    routes,
    socketConnections: pick(raw.SOCKET_CONNECTIONS_PER_IP, raw.SOCKET_CONNECTIONS_PER_USER, socketConnectionDefaults),
  };
}

/** Development accepts the local names of the machine; elsewhere only the configured list. */
function siweDomains(configured: string | undefined, publicUrl: string, port: number, env: Environment): string[] {
  if (configured)
    return configured
      .split(',')
      .map((d) => d.trim())
      .filter(Boolean);
  const canonical = new URL(publicUrl).host;
  if (env !== 'development') return [canonical];
  return [...new Set([canonical, `localhost:${port}`, `127.0.0.1:${port}`])];
}
