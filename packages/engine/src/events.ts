// Event constructors. Both the engine and the reference matcher build events here so that
// every event of a kind has the same key order (byte-identical JSON) and one hidden class.
import type {
  AcceptedEvent,
  CancelledEvent,
  CancelReason,
  Command,
  EngineEvent,
  EventSink,
  FilledEvent,
  ModifiedEvent,
  PlaceCommand,
  RejectedEvent,
  RejectReason,
  Side,
  TradeEvent,
} from './types.ts';

export function acceptedEvent(seq: number, cmd: PlaceCommand): AcceptedEvent {
  return {
    type: 'accepted',
    seq,
    ts: cmd.ts,
    orderId: cmd.orderId,
    userId: cmd.userId,
    side: cmd.side,
    orderType: cmd.orderType,
    tif: cmd.tif,
    priceTicks: cmd.priceTicks,
    qtyLots: cmd.qtyLots,
    quoteBudgetTickLots: cmd.quoteBudgetTickLots,
  };
}

export function rejectedEvent(seq: number, cmd: Command, reason: RejectReason): RejectedEvent {
  return {
    type: 'rejected',
    seq,
    ts: cmd.ts,
    command: cmd.type,
    orderId: cmd.orderId,
    userId: cmd.userId,
    reason,
  };
}

export function modifiedEvent(
  seq: number,
  ts: number,
  orderId: number,
  userId: number,
  side: Side,
  priceTicks: number,
  qtyLots: number,
  keptPriority: boolean,
): ModifiedEvent {
  return { type: 'modified', seq, ts, orderId, userId, side, priceTicks, qtyLots, keptPriority };
}

export function tradeEvent(
  seq: number,
  ts: number,
  makerOrderId: number,
  takerOrderId: number,
  makerUserId: number,
  takerUserId: number,
  priceTicks: number,
  qtyLots: number,
  takerSide: Side,
): TradeEvent {
  return {
    type: 'trade',
    seq,
    ts,
    makerOrderId,
    takerOrderId,
    makerUserId,
    takerUserId,
    priceTicks,
    qtyLots,
    makerSide: takerSide === 'buy' ? 'sell' : 'buy',
    takerSide,
  };
}

export function cancelledEvent(
  seq: number,
  ts: number,
  orderId: number,
  userId: number,
  side: Side,
  reason: CancelReason,
  remainingLots: number,
): CancelledEvent {
  return { type: 'cancelled', seq, ts, orderId, userId, side, reason, remainingLots };
}

export function filledEvent(seq: number, ts: number, orderId: number, userId: number, side: Side): FilledEvent {
  return { type: 'filled', seq, ts, orderId, userId, side };
}

/**
 * A reusable event sink: clear() forgets the events without freeing the storage (an array's
 * `length = 0` frees it, and the next push allocates again). Events stay referenced until
 * overwritten, so copy out what you keep before the next clear.
 */
export class EventBuffer implements EventSink {
  private readonly items: EngineEvent[] = [];
  length = 0;

  push(event: EngineEvent): void {
    this.items[this.length++] = event;
  }

  at(index: number): EngineEvent {
    if (index < 0 || index >= this.length) throw new RangeError('event buffer: index out of range');
    return this.items[index] as EngineEvent;
  }

  clear(): void {
    this.length = 0;
  }

  toArray(): EngineEvent[] {
    return this.items.slice(0, this.length);
  }
}
