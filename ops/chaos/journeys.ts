// What the simulated users do while the faults happen: sign in, deposit on chain, move money between
// their accounts, exchange, trade (limit orders on both sides so they match, resting ones that make
// a book), buy in the store and a node, join savings, claim, sign in daily, withdraw; and operators
// approving the withdrawals through the admin API. Every money-moving POST carries an
// Idempotency-Key (apps/server/src/lib/idempotency-key.ts), an order a client_order_id.
import type { Address, Hash } from 'viem';
import type { Lang } from '@nadi/api/common';
import type { Cluster } from '../cluster/types.ts';
import { ChainDriver } from './chain.ts';
import { newKey, Recorder, SimUser, type ActionRecord } from './user.ts';

export interface DepositRecord {
  user: string;
  userId: number;
  txHash: Hash;
  amount: string;
  at: number;
}

/** Languages the users speak: the non-English ones check that a refusal's msg is translated. */
const userLangs: Lang[] = ['EN', 'JP', 'TW', 'KO', 'PT'];

/** Prices (USDT per NADI) the traders use: crossing at 0.5, resting below and above. */
const crossPrice = '0.5';
const restingBids = ['0.45', '0.46', '0.47', '0.48'];
const restingAsks = ['0.52', '0.53', '0.54', '0.55'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Population {
  readonly recorder = new Recorder();
  readonly users: SimUser[] = [];
  readonly operators: SimUser[] = [];
  readonly deposits: DepositRecord[] = [];
  readonly chain: ChainDriver;
  /** Trading stops while the order book is compared across the writer's failover. */
  tradingPaused = false;
  private tradesInFlight = 0;
  private stopped = false;
  private readonly loops: Promise<void>[] = [];
  private readonly depositAddress = new Map<SimUser, Address>();
  private readonly purchases = new Map<SimUser, { store: number; node: number }>();
  private readonly addressId = new Map<SimUser, number>();
  private flexibleProductId = 0;
  private storeProductId = 0;
  private readonly cluster: Cluster;
  private readonly options: { users: number; log: (line: string) => void };

  constructor(cluster: Cluster, options: { users: number; log: (line: string) => void }) {
    this.cluster = cluster;
    this.options = options;
    this.chain = new ChainDriver(cluster);
    for (let i = 0; i < options.users; i += 1) this.users.push(new SimUser(cluster, this.recorder, userLangs[i % userLangs.length]!));
    for (const operator of cluster.operators) this.operators.push(new SimUser(cluster, this.recorder, 'EN', operator.privateKey));
  }

  /** Before the faults: every user signs in, is funded on chain, deposits and waits for the credit. */
  async setUp(): Promise<void> {
    const { log } = this.options;
    for (const operator of this.operators) {
      if (!(await operator.signIn(this.cluster.rootInviteCode))) throw new Error(`operator ${operator.address} could not sign in`);
    }
    // The hot wallet sends the withdrawals: top it up.
    await this.chain.fund(this.cluster.hotWalletAddress as Address, '100000', '10');
    await Promise.all(
      this.users.map(async (user) => {
        if (!(await user.signIn(this.cluster.rootInviteCode))) throw new Error(`user ${user.address} could not sign in: ${lastAnswer(this.recorder, user)}`);
        await this.chain.fund(user.address as Address, '30000');
        const address = await this.must(user, 'GET', '/api/v1/recharge/address');
        this.depositAddress.set(user, (address.data as { address: Address }).address);
        this.purchases.set(user, { store: 0, node: 0 });
      }),
    );
    log(`${this.users.length} users signed in and funded; depositing`);
    await Promise.all(this.users.map((user) => this.depositOnce(user, '20000')));
    await Promise.all(this.users.map((user) => this.waitForFund(user, 20_000n)));
    log('deposits credited; exchanging and moving to the trade account');
    const products = await this.must(this.users[0]!, 'GET', '/api/v1/financial/list');
    this.flexibleProductId = ((products.data as { list: { id: number; kind: string }[] }).list.find((p) => p.kind === 'flexible')?.id ?? 0) as number;
    const store = await this.must(this.users[0]!, 'GET', '/api/v1/store/products');
    this.storeProductId = (store.data as { list: { id: number }[] }).list[0]?.id ?? 0;
    await Promise.all(
      this.users.map(async (user) => {
        await this.exchange(user, '8000');
        await this.transfer(user, 'USDT', 'fund', 'trade', '1500');
        await this.transfer(user, 'NADI', 'fund', 'trade', '3000');
        const added = await user.call('POST', '/api/v1/address/add', {
          body: {
            receiver_name: 'Chaos User',
            phone_country: 'US',
            phone: '(201) 555-0123',
            area: 'New York, NY',
            detail: '10 Hudson Yards',
            is_default: true,
          },
        });
        if (added.code === 200) this.addressId.set(user, (added.data as { id: number }).id);
      }),
    );
  }

  /** Starts every user's loop and the operators' review loop. */
  start(): void {
    this.stopped = false;
    for (const user of this.users) this.loops.push(this.userLoop(user));
    for (const operator of this.operators.slice(0, 1)) this.loops.push(this.operatorLoop(operator));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops.splice(0));
  }

  /** Stops placing orders and waits for those in flight: the book is still from then on. */
  async pauseTrading(): Promise<void> {
    this.tradingPaused = true;
    while (this.tradesInFlight > 0) await sleep(50);
  }

  resumeTrading(): void {
    this.tradingPaused = false;
  }

  private async must(user: SimUser, method: 'GET' | 'POST', path: string, body?: unknown): Promise<ActionRecord> {
    for (let attempt = 0; ; attempt += 1) {
      const answer = await user.call(method, path, body === undefined ? {} : { body });
      if (answer.code === 200) return answer;
      if (attempt >= 5) throw new Error(`${path}: ${answer.status} ${answer.reason ?? answer.error}`);
      await sleep(1_000);
    }
  }

  private async waitForFund(user: SimUser, atLeastNadi: bigint): Promise<void> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const assets = await user.call('GET', '/api/v1/wallet/assets');
      const fund = (assets.data as { accounts?: { kind: string; asset: string; available: string }[] } | null)?.accounts?.find(
        (a) => a.kind === 'fund' && a.asset === 'NADI',
      );
      if (fund && BigInt(fund.available.split('.')[0] ?? '0') >= atLeastNadi) return;
      if (Date.now() > deadline) throw new Error(`the deposit of ${user.address} was not credited within 120 s`);
      await sleep(1_000);
    }
  }

  private async depositOnce(user: SimUser, nadi: string): Promise<void> {
    const address = this.depositAddress.get(user);
    if (!address) return;
    const txHash = await this.chain.deposit(user.privateKey, address, nadi);
    this.deposits.push({ user: user.address, userId: user.userId, txHash, amount: nadi, at: Date.now() });
  }

  private transfer(user: SimUser, asset: 'NADI' | 'USDT', from: 'fund' | 'trade', to: 'fund' | 'trade', amount: string): Promise<ActionRecord> {
    return user.call('POST', '/api/v1/wallet/transfer', { body: { asset, from, to, amount }, idempotencyKey: newKey() });
  }

  private async exchange(user: SimUser, nadi: string): Promise<void> {
    const quote = await user.call('POST', '/api/v1/wallet/exchange/quote', { body: { from_asset: 'NADI', to_asset: 'USDT', amount: nadi } });
    const id = (quote.data as { quote_id?: string } | null)?.quote_id;
    if (quote.code !== 200 || !id) return;
    await user.call('POST', '/api/v1/wallet/exchange/confirm', { body: { quote_id: id, amount: nadi }, idempotencyKey: newKey() });
  }

  private async trade(user: SimUser): Promise<void> {
    if (this.tradingPaused) return;
    this.tradesInFlight += 1;
    try {
      const roll = Math.random();
      const side = Math.random() < 0.5 ? 'buy' : 'sell';
      if (roll < 0.2) {
        // Cancel one of the user's open orders.
        const open = await user.call('GET', '/api/v1/trade/currentOrders?symbol=NADI-USDT');
        const list = (open.data as { list?: { id: number }[] } | null)?.list ?? [];
        const order = list[Math.floor(Math.random() * list.length)];
        if (order) await user.call('POST', '/api/v1/trade/cancel', { body: { order_id: order.id } });
        return;
      }
      const price = roll < 0.6 ? crossPrice : pick(side === 'buy' ? restingBids : restingAsks);
      const key = newKey();
      await user.call('POST', '/api/v1/trade/order', {
        body: { symbol: 'NADI-USDT', side, type: 'limit', price, quantity: pick(['4', '5', '6.5', '8']), client_order_id: key },
        idempotencyKey: key,
      });
    } finally {
      this.tradesInFlight -= 1;
    }
  }

  private async userLoop(user: SimUser): Promise<void> {
    const journeys: [number, () => Promise<unknown>][] = [
      [4, () => this.trade(user)],
      [2, () => this.transfer(user, pick(['NADI', 'USDT'] as const), 'fund', 'trade', pick(['1', '2.5']))],
      [1, () => this.transfer(user, 'NADI', 'trade', 'fund', '1')],
      [1.5, () => this.exchange(user, pick(['10', '20']))],
      [3, () => user.call('GET', pick(['/api/v1/wallet/assets', '/api/v1/trade/depth?symbol=NADI-USDT', '/api/v1/user/info', '/api/v1/wallet/moneyLog']))],
      [0.8, () => this.joinSavings(user)],
      [0.8, () => user.call('POST', '/api/v1/financial/receive', { idempotencyKey: newKey() })],
      [0.4, () => user.call('POST', '/api/v1/mining/claim', { idempotencyKey: newKey() })],
      [0.4, () => user.call('POST', '/api/v1/sign/operate')],
      [0.6, () => user.call('POST', '/api/v1/withdraw/apply', { body: { amount: pick(['2', '3']) }, idempotencyKey: newKey() })],
      [0.3, () => this.depositOnce(user, '25')],
      [0.3, () => this.buyStore(user)],
      [0.3, () => this.buyNode(user)],
    ];
    const total = journeys.reduce((sum, [weight]) => sum + weight, 0);
    while (!this.stopped) {
      let roll = Math.random() * total;
      const journey = journeys.find(([weight]) => (roll -= weight) < 0) ?? journeys[0]!;
      try {
        await journey[1]();
      } catch (error) {
        this.options.log(`journey of ${user.address}: ${error instanceof Error ? error.message : String(error)}`);
      }
      await sleep(150 + Math.random() * 450);
    }
  }

  private async joinSavings(user: SimUser): Promise<void> {
    if (!this.flexibleProductId) return;
    await user.call('POST', '/api/v1/financial/join', { body: { product_id: this.flexibleProductId, amount: '100' }, idempotencyKey: newKey() });
  }

  private async buyStore(user: SimUser): Promise<void> {
    const counts = this.purchases.get(user);
    const addressId = this.addressId.get(user);
    if (!counts || !addressId || !this.storeProductId || counts.store >= 1) return;
    const answer = await user.call('POST', '/api/v1/machine/order', {
      body: { items: [{ product_id: this.storeProductId, quantity: 1 }], pay_method: 'balance', pay_asset: 'USDT', address_id: addressId },
      idempotencyKey: newKey(),
    });
    if (answer.code === 200) counts.store += 1;
  }

  private async buyNode(user: SimUser): Promise<void> {
    const counts = this.purchases.get(user);
    if (!counts || counts.node >= 2) return;
    const quote = await user.call('POST', '/api/v1/node/quote', { body: { tier_id: 1, pay_method: 'balance', pay_asset: 'NADI' } });
    const price = (quote.data as { price?: string | null } | null)?.price;
    if (quote.code !== 200) return;
    const answer = await user.call('POST', '/api/v1/node/buy', {
      body: { tier_id: 1, pay_method: 'balance', pay_asset: 'NADI', ...(price ? { price } : {}) },
      idempotencyKey: newKey(),
    });
    if (answer.code === 200) counts.node += 1;
  }

  /** The operator reviews withdrawals as the console does: lists the pending ones, approves each. */
  private async operatorLoop(operator: SimUser): Promise<void> {
    while (!this.stopped) {
      const pending = await operator.call('GET', '/api/v1/operator/withdraw/list?status=0&page_size=50');
      const list = (pending.data as { list?: { id: number; approval_id?: number | null }[] } | null)?.list ?? [];
      for (const withdrawal of list) {
        if (this.stopped) break;
        if (withdrawal.approval_id) continue;
        await operator.call('POST', '/api/v1/operator/withdraw/approve', { body: { id: withdrawal.id }, idempotencyKey: newKey() });
      }
      await sleep(2_000);
    }
  }
}

function pick<T>(values: readonly T[]): T {
  return values[Math.floor(Math.random() * values.length)]!;
}

function lastAnswer(recorder: Recorder, user: SimUser): string {
  const last = recorder.actions.filter((a) => a.user === user.address).at(-1);
  return last ? `${last.route} ${last.status} ${last.reason ?? last.error ?? ''}` : 'no call';
}
