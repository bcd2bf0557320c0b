// Several server instances share what happens through Redis pub/sub (docs/architecture.md, "Past
// one machine": Redis carries socket fan-out between instances). One RedisPubSub per process holds the two
// connections pub/sub needs (a subscribed connection can do nothing else) and dispatches each
// channel's messages to its handler. Redis delivers one subscriber's messages in publish order
// across channels, so what one instance publishes in order, every other instance sees in order.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AppEvent, AppEventListener, EventBus } from './event-bus.ts';
import { LocalBus } from './event-bus.ts';

export type ChannelHandler = (message: string) => void;

/**
 * One line when a Redis connection is lost and one when it is back. Without an 'error' listener
 * ioredis prints every failed reconnect attempt as "[ioredis] Unhandled error event" with its stack
 * (a Redis stopped for 30 s filled each instance's log with them); it reconnects either way.
 */
export function reportRedisOutages(client: Redis, name: string): void {
  let isDown = false;
  client.on('error', (error: Error) => {
    if (isDown) return;
    isDown = true;
    console.error(`redis (${name}): connection lost, reconnecting: ${error.message}`);
  });
  client.on('ready', () => {
    if (!isDown) return;
    isDown = false;
    console.info(`redis (${name}): connected again`);
  });
}

export class RedisPubSub {
  /** Tells this process's own messages from the others' on shared channels. */
  readonly instanceId = randomUUID();
  readonly prefix: string;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Map<string, ChannelHandler>();

  private constructor(redis: Redis, prefix: string) {
    this.pub = redis;
    this.sub = redis.duplicate();
    reportRedisOutages(this.sub, 'subscriber');
    this.prefix = prefix;
    this.sub.on('message', (channel: string, message: string) => {
      const handler = this.handlers.get(channel);
      if (!handler) return;
      try {
        handler(message);
      } catch (error) {
        console.error(`redis pubsub: the handler of ${channel} failed`, error);
      }
    });
  }

  /** `prefix` keeps deployments (and test runs) that share a Redis server apart. */
  static create(redis: Redis, prefix = 'nadi'): RedisPubSub {
    return new RedisPubSub(redis, prefix);
  }

  /** Subscribes before it resolves, so nothing published after it returns is missed. */
  async on(channel: string, handler: ChannelHandler): Promise<void> {
    const name = `${this.prefix}:${channel}`;
    this.handlers.set(name, handler);
    await this.sub.subscribe(name);
  }

  async off(channel: string): Promise<void> {
    const name = `${this.prefix}:${channel}`;
    this.handlers.delete(name);
    await this.sub.unsubscribe(name);
  }

  /** Resolves to the number of instances subscribed to the channel (0: nobody listens). */
  async publish(channel: string, message: string): Promise<number> {
    return this.pub.publish(`${this.prefix}:${channel}`, message);
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.sub.disconnect();
  }
}

const eventsChannel = 'events';

/**
 * The event bus across instances: an event is delivered at once to this process's listeners and
 * published to Redis for the other instances (each skips its own). Events are plain JSON.
 */
export class RedisBus implements EventBus {
  private readonly local = new LocalBus();
  private readonly pubsub: RedisPubSub;

  private constructor(pubsub: RedisPubSub) {
    this.pubsub = pubsub;
  }

  static async start(pubsub: RedisPubSub): Promise<RedisBus> {
    const bus = new RedisBus(pubsub);
    await pubsub.on(eventsChannel, (message) => {
      const { from, event } = JSON.parse(message) as { from: string; event: AppEvent };
      if (from !== pubsub.instanceId) bus.local.publish(event);
    });
    return bus;
  }

  publish(event: AppEvent): void {
    this.local.publish(event);
    this.pubsub.publish(eventsChannel, JSON.stringify({ from: this.pubsub.instanceId, event })).catch((error: unknown) => {
      console.error('redis bus: publish failed', error);
    });
  }

  subscribe(listener: AppEventListener): () => void {
    return this.local.subscribe(listener);
  }
}
