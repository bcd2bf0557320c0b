/**
 * The spot market's last NADI/USDT price, shared by the module that knows it (market) and the ones
 * that value balances with it (wallet). buildApp creates it before any module registers; the market
 * connects its reader when its gateway starts and the wallet asks at request time, so neither
 * depends on the order the plugins register in, and neither imports the other.
 */
export class MarketPriceSource {
  private reader: (() => bigint | null) | null = null;

  connect(reader: () => bigint | null): void {
    this.reader = reader;
  }

  /** The last price, or null while no market runs or it has not traded yet. */
  current(): bigint | null {
    return this.reader?.() ?? null;
  }
}
