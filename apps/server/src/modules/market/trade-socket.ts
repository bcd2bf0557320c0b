// One `/ws/trade` connection (docs/trade-socket.md): the request/reply protocol (SUBSCRIBE,
// UNSUBSCRIBE, GET_TIME, PING) and every limit of the socket, each a named constant with its unit.
import type { Lang } from '@nadi/api/common';
import type { ErrorReason } from '@nadi/api/errors';
import { isPrivateStream, isStreamName, tradeSocketErrors, type StreamName, type TradeSocketErrorCode, type TradeSocketReply } from '@nadi/api/trade-socket';
import { translate } from '../../i18n/messages.ts';
import { byteLengthOf, closeCodes, socketOpen, textOf, type SocketLike } from '../../lib/socket.ts';
import type { StreamSubscriber, TradeStreams } from './trade-streams.ts';

export interface TradeSocketLimits {
  /** An inbound message above this closes the connection with 1009. */
  inboundBytesMax: number;
  /** Messages above this within one second are answered with an error and dropped. */
  messagesPerSecondMax: number;
  /** Messages within one second at which the connection is closed with 1008 (sustained abuse). */
  messagesPerSecondCloseAt: number;
  subscriptionsMax: number;
  /** A consumer whose unsent bytes pass this is disconnected (it cannot keep up). */
  bufferedBytesMax: number;
  /** A connection without any subscription is closed after this (docs/product.md section 9: 30 s). */
  idleWithoutSubscriptionMs: number;
}

export const tradeSocketLimits: TradeSocketLimits = {
  inboundBytesMax: 4 * 1024,
  messagesPerSecondMax: 10,
  messagesPerSecondCloseAt: 20,
  subscriptionsMax: 50,
  bufferedBytesMax: 1024 * 1024,
  idleWithoutSubscriptionMs: 30_000,
};

const errorText: Record<keyof typeof tradeSocketErrors, ErrorReason> = {
  INVALID_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  UNKNOWN_STREAM: 'BAD_REQUEST',
  TOO_MANY_SUBSCRIPTIONS: 'BAD_REQUEST',
  RATE_LIMITED: 'RATE_LIMITED',
};

export interface TradeSocketContext {
  streams: TradeStreams;
  limits: TradeSocketLimits;
  lang: Lang;
  /** Resolves the connection's session token to its user, or null (no token, invalid, expired). */
  authenticate(): Promise<number | null>;
  /** The server's clock, answered to GET_TIME. */
  nowMs(): number;
}

type RequestId = number | string | null;

export class TradeConnection implements StreamSubscriber {
  userId: number | null = null;
  private readonly socket: SocketLike;
  private readonly ctx: TradeSocketContext;
  private readonly streams = new Set<StreamName>();
  private windowStartMs = 0;
  private windowCount = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private isClosed = false;
  /** A close is queued behind the replies still due; further messages are ignored. */
  private isClosing = false;
  /** Requests are handled one at a time, in arrival order (a subscribe may wait for the session). */
  private queue: Promise<void> = Promise.resolve();

  constructor(socket: SocketLike, ctx: TradeSocketContext) {
    this.socket = socket;
    this.ctx = ctx;
    socket.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    socket.on('close', () => this.dispose());
    socket.on('error', () => this.dispose());
    this.armIdle();
  }

  /** Called by the streams for every message of a subscribed stream. */
  send(text: string): void {
    if (this.isClosed || this.socket.readyState !== socketOpen) return;
    if (this.socket.bufferedAmount > this.ctx.limits.bufferedBytesMax) {
      // A slow consumer: it would only fall further behind (and hold memory). It reconnects and resyncs.
      this.dispose();
      this.socket.terminate();
      return;
    }
    this.socket.send(text);
  }

  private onMessage(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): void {
    if (this.isClosed || this.isClosing) return;
    const limits = this.ctx.limits;
    if (byteLengthOf(data) > limits.inboundBytesMax) return this.closeWith(closeCodes.messageTooBig, 'message too big');
    // Wall time, not the app clock: the window is about the client's real pace.
    const now = Date.now();
    if (now - this.windowStartMs >= 1000) {
      this.windowStartMs = now;
      this.windowCount = 0;
    }
    this.windowCount += 1;
    // Everything goes through the queue, so replies (errors included) leave in arrival order and
    // the answers to the messages before an abusive burst are still sent before it is closed.
    if (this.windowCount >= limits.messagesPerSecondCloseAt) {
      this.isClosing = true;
      return this.enqueue(() => this.closeWith(closeCodes.policyViolation, 'too many messages'));
    }
    const request = isBinary ? null : parseRequest(textOf(data));
    const id = request?.id ?? null;
    if (this.windowCount > limits.messagesPerSecondMax) return this.enqueue(() => this.fail(id, 'RATE_LIMITED'));
    if (!request || typeof request.method !== 'string') return this.enqueue(() => this.fail(id, 'INVALID_REQUEST'));
    this.enqueue(() => this.handle(request), id);
  }

  private enqueue(step: () => void | Promise<void>, id: RequestId = null): void {
    this.queue = this.queue.then(step).catch(() => this.fail(id, 'INVALID_REQUEST'));
  }

  private async handle(r: ParsedRequest): Promise<void> {
    switch (r.method) {
      case 'PING':
        return this.reply({ id: r.id, result: 'PONG' });
      case 'GET_TIME':
        return this.reply({ id: r.id, result: { time: this.ctx.nowMs() } });
      case 'SUBSCRIBE':
        return this.subscribe(r);
      case 'UNSUBSCRIBE':
        return this.unsubscribe(r);
      default:
        return this.fail(r.id, 'INVALID_REQUEST');
    }
  }

  private async subscribe(r: ParsedRequest): Promise<void> {
    const names = streamParams(r.params);
    if (!names) return this.fail(r.id, 'INVALID_REQUEST');
    if (!names.every(isStreamName)) return this.fail(r.id, 'UNKNOWN_STREAM');
    const added = names.filter((s) => !this.streams.has(s));
    if (new Set([...this.streams, ...added]).size > this.ctx.limits.subscriptionsMax) return this.fail(r.id, 'TOO_MANY_SUBSCRIPTIONS');
    if (added.some(isPrivateStream)) {
      // Checked at every private subscription, so an expired session cannot subscribe again.
      this.userId = await this.ctx.authenticate();
      if (this.userId === null) return this.fail(r.id, 'UNAUTHORIZED');
    }
    if (this.isClosed) return;
    // The reply first, so a book snapshot follows the answer to the request that asked for it.
    this.reply({ id: r.id, result: null });
    for (const s of added) {
      this.streams.add(s);
      this.ctx.streams.add(s, this);
    }
    this.armIdle();
  }

  private unsubscribe(r: ParsedRequest): void {
    const names = streamParams(r.params);
    if (!names) return this.fail(r.id, 'INVALID_REQUEST');
    if (!names.every(isStreamName)) return this.fail(r.id, 'UNKNOWN_STREAM');
    for (const s of names) {
      this.streams.delete(s);
      this.ctx.streams.remove(s, this);
    }
    this.reply({ id: r.id, result: null });
    this.armIdle();
  }

  /** A connection with no subscription is closed after the idle time; any subscription stops the clock. */
  private armIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.isClosed || this.streams.size > 0) return;
    this.idleTimer = setTimeout(() => this.closeWith(closeCodes.normal, 'no subscription'), this.ctx.limits.idleWithoutSubscriptionMs);
  }

  private reply(message: TradeSocketReply): void {
    this.send(JSON.stringify(message));
  }

  private fail(id: RequestId, error: keyof typeof tradeSocketErrors): void {
    const code: TradeSocketErrorCode = tradeSocketErrors[error];
    this.reply({ id, error: { code, msg: translate(this.ctx.lang, errorText[error]) } });
  }

  private closeWith(code: number, reason: string): void {
    this.dispose();
    this.socket.close(code, reason);
  }

  private dispose(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    for (const s of this.streams) this.ctx.streams.remove(s, this);
    this.streams.clear();
  }
}

interface ParsedRequest {
  method: unknown;
  id: RequestId;
  params: unknown;
}

function parseRequest(text: string): ParsedRequest | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const id = typeof v.id === 'number' || typeof v.id === 'string' ? v.id : null;
  return { method: v.method, id, params: v.params };
}

function streamParams(params: unknown): string[] | null {
  if (!Array.isArray(params) || params.length === 0) return null;
  return params.every((p) => typeof p === 'string') ? (params as string[]) : null;
}
