import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, limitBudgetVariables, limitDefaults, loadSettings, routeLimitDefaults } from '../../config.ts';
import { devDepositXpub } from '@nadi/chain/hd';
import { createTestApp, type TestApp } from '../../test/harness.ts';

/** What `run` throws, or null when it returns. */
function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
}

describe('configuration from the environment', () => {
  it('names every missing variable in production', () => {
    expect(() => loadSettings({ NODE_ENV: 'production' })).toThrow(ConfigError);
    // Caught by hand so the one message can be checked for every name; it must throw at all.
    const error = catchError(() => loadSettings({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/nadi' }));
    expect(error).toBeInstanceOf(ConfigError);
    const text = (error as Error).message;
    for (const name of [
      'PUBLIC_URL',
      'RPC_URL',
      'CHAIN_ID',
      'NADI_ADDRESS',
      'SIWE_DOMAIN',
      'ROOT_ADDRESS',
      'DEPOSIT_XPUB',
      'HOT_WALLET_PRIVATE_KEY',
      'OPERATOR_ADDRESSES',
    ])
      expect(text).toContain(name);
    expect(text).not.toContain('DATABASE_URL');
  });

  it('names a wrong value', () => {
    expect(() => loadSettings({ NADI_ADDRESS: '0x12' })).toThrow(/NADI_ADDRESS/);
    expect(() => loadSettings({ PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('asks for the envelope keys when encryption is on outside development, and leaves it off in development', () => {
    expect((catchError(() => loadSettings({ NODE_ENV: 'production' })) as Error).message).toMatch(/ENVELOPE_KEYS: required/);
    expect(loadSettings({}).isEncryptionOn).toBe(false);
    expect(loadSettings({ ENCRYPTION: 'on' }).isEncryptionOn).toBe(true);
    expect(() => loadSettings({ ENVELOPE_KEYS: 'k1:short' })).toThrow(/ENVELOPE_KEYS/);
  });

  it('accepts a complete production configuration and keeps the server RPC private', () => {
    const settings = loadSettings({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://app.nadi.example',
      DATABASE_URL: 'postgres://db/nadi',
      RPC_URL: 'https://bsc.example/key-123',
      CHAIN_ID: '56',
      NADI_ADDRESS: '0x1111111111111111111111111111111111111111',
      SIWE_DOMAIN: 'app.nadi.example',
      ROOT_ADDRESS: '0x2222222222222222222222222222222222222222',
      ROOT_INVITE_CODE: 'NADIROOT',
      NODE_DEADLINE: '2027-01-01T00:00:00Z',
      DEPOSIT_XPUB: devDepositXpub(),
      PAYMENT_GATEWAY_ADDRESS: '0x3333333333333333333333333333333333333333',
      HOT_WALLET_PRIVATE_KEY: `0x${'ab'.repeat(32)}`,
      OPERATOR_ADDRESSES: '0x4444444444444444444444444444444444444444, 0x5555555555555555555555555555555555555555',
      ENVELOPE_KEYS: `k2:${'A'.repeat(43)}, k1:${'B'.repeat(43)}`,
    });
    expect(settings.env).toBe('production');
    expect(settings.isEncryptionOn).toBe(true);
    expect(settings.envelopeKeys).toEqual([
      { kid: 'k2', seed: 'A'.repeat(43) },
      { kid: 'k1', seed: 'B'.repeat(43) },
    ]);
    expect(settings.operatorAddresses).toEqual(['0x4444444444444444444444444444444444444444', '0x5555555555555555555555555555555555555555']);
    expect(settings.isTestOrderOn).toBe(false);
    expect(settings.chainStartBlock).toBeNull();
    expect(settings.siweDomains).toEqual(['app.nadi.example']);
    expect(settings.publicRpcUrl).not.toContain('key-123');
  });
});

describe('one parser per kind of value', () => {
  it('reads a switch as on or off only, naming the variable on any other spelling', () => {
    expect(loadSettings({ MINING_JOBS: 'off', TRUST_PROXY: 'on' })).toMatchObject({ isMiningJobsOn: false, trustProxy: true });
    expect(loadSettings({})).toMatchObject({ isMiningJobsOn: true, isStoreJobsOn: true, isNodeJobsOn: true, isChainWorkersOn: true, trustProxy: false });
    expect(loadSettings({ DEMO_GRANT: 'off', DEMO_MARKET: 'off' })).toMatchObject({ isDemoGrantOn: false, isDemoMarketOn: false });
    for (const [name, value] of [
      ['MINING_JOBS', 'false'],
      ['TRUST_PROXY', 'true'],
      ['ENCRYPTION', 'yes'],
      ['DEMO_GRANT', '0'],
      ['CHAIN_WORKERS', 'On'],
    ] as const)
      expect(() => loadSettings({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(`${name}: must be on or off`));
  });

  it('reads a decimal as digits with at most 18 decimals, kept as its string', () => {
    expect(loadSettings({ WITHDRAW_FEE: '0.25', MARKET_TICK_SIZE: '0.000000000000000001' })).toMatchObject({
      withdrawFee: '0.25',
      market: { tickSize: '0.000000000000000001' },
    });
    for (const value of ['1e3', '.5', '01', '-1', '1.', '0.0000000000000000001', ''])
      expect(() => loadSettings({ WITHDRAW_FEE: value }), value).toThrow(/WITHDRAW_FEE: must be a decimal number such as 0.5/);
  });

  it('reads a whole number as digits only, within its range', () => {
    expect(loadSettings({ PORT: '9090', CHAIN_START_BLOCK: '0' })).toMatchObject({ port: 9090, chainStartBlock: 0 });
    for (const value of ['6e4', '80.5', ' 80', '0x50', '', '-1']) expect(() => loadSettings({ PORT: value }), value).toThrow(/PORT/);
    expect(() => loadSettings({ PORT: '65536' })).toThrow(/PORT/);
    expect(() => loadSettings({ RATE_LIMIT_TRADE_PER_USER: '0' })).toThrow(/RATE_LIMIT_TRADE_PER_USER/);
  });

  it('refuses the per-minute sign-in variables by their new names', () => {
    expect(() => loadSettings({ RATE_LIMIT_LOGIN_PER_MINUTE: '30' })).toThrow(/RATE_LIMIT_LOGIN_PER_MINUTE: renamed to RATE_LIMIT_LOGIN_PER_IP/);
    expect(() => loadSettings({ RATE_LIMIT_NONCE_PER_MINUTE: '30' })).toThrow(/RATE_LIMIT_NONCE_PER_MINUTE: renamed to RATE_LIMIT_NONCE_PER_IP/);
  });
});

describe('abuse limit settings (docs/limits.md)', () => {
  it('gives trade a ten-second window and the other classes a minute; development multiplies the defaults by ten, never a number set', () => {
    const { classes, routes } = loadSettings({ RATE_LIMIT_TRADE_PER_USER: '50', RATE_LIMIT_LOGIN_PER_IP: '7' }).limits;
    expect(classes.trade).toEqual({ windowMs: 10_000, perIp: limitDefaults.trade.perIp * 10, perUser: 50 });
    expect(classes.money).toEqual({ windowMs: 60_000, perIp: limitDefaults.money.perIp * 10, perUser: limitDefaults.money.perUser * 10 });
    expect(Object.keys(routes).sort()).toEqual(Object.keys(routeLimitDefaults).sort());
    expect(routes['/api/v1/auth/login']).toEqual({ perIp: 7 });
    expect(routes['/api/v1/auth/isRegister']).toEqual({ perIp: 300 });
    expect(loadSettings({ RATE_LIMIT_TRADE_WINDOW_MS: '1000' }).limits.classes.trade.windowMs).toBe(1_000);
  });

  it('lists every budget variable, so the test harness and the benches can lift them all', () => {
    expect([...limitBudgetVariables].sort()).toEqual(
      [
        ...['SIGN_IN', 'MONEY', 'TRADE', 'WRITE', 'READ', 'BACKGROUND', 'SOCKET'].flatMap((c) => [`RATE_LIMIT_${c}_PER_IP`, `RATE_LIMIT_${c}_PER_USER`]),
        'RATE_LIMIT_LOGIN_PER_IP',
        'RATE_LIMIT_NONCE_PER_IP',
        'SOCKET_CONNECTIONS_PER_IP',
        'SOCKET_CONNECTIONS_PER_USER',
      ].sort(),
    );
  });

  it('names only contract routes in its overrides', async () => {
    const { loadContractRoutes } = await import('../../test/contract-routes.ts');
    const paths = new Set([...(await loadContractRoutes()).values()].map((r) => r.path));
    for (const path of Object.keys(routeLimitDefaults)) expect(paths.has(path), path).toBe(true);
  });
});

describe('GET /api/v1/common/config', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ NADI_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the public configuration with the seeded node deadline', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/common/config' });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.chain).toMatchObject({ id: 31337, rpc_url: '/rpc', nadi_address: '0x5FbDB2315678afecb367f032d93F642f64180aa3' });
    expect(Date.parse(data.node_deadline)).toBe(t.clock.now().getTime() + 30 * 86_400_000);
    expect(data.dev_wallet).toBe(true);
  });

  it('keeps the deadline across restarts: seeding twice changes nothing', async () => {
    const { seedDatabase } = await import('../../db/seed/seed.ts');
    const before = (await t.app.inject({ method: 'GET', url: '/api/v1/common/config' })).json().data.node_deadline;
    t.clock.advance(86_400_000);
    await seedDatabase(t.database.db, t.settings, t.clock.now());
    const after = (await t.app.inject({ method: 'GET', url: '/api/v1/common/config' })).json().data.node_deadline;
    expect(after).toBe(before);
  });

  it('serves health, metrics and the OpenAPI document', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json().status).toBe('ok');
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toContain('http_request_duration_seconds');
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/auth/login', '/api/v1/user/info', '/api/v1/common/config']));
  });

  it('sends the security headers on API answers and errors alike', async () => {
    for (const url of ['/api/v1/common/config', '/api/v1/nothing-here']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(String(res.headers['content-security-policy']), url).toContain("connect-src 'self' https: wss: ws:");
      expect(String(res.headers['content-security-policy']), url).toContain("frame-ancestors 'none'");
      // HSTS only outside development (docs/security.md "Sessions and headers"); this app is development.
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('answers unknown API paths with the NOT_FOUND envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here', headers: { lang: 'PT' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 404, reason: 'NOT_FOUND', msg: 'Não encontramos o que você procura.' });
  });
});
