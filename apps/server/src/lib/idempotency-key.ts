import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { idempotencyHeader } from '@nadi/api/common';
import { AppError } from './app-error.ts';

const idempotencyKeyPattern = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The ledger key of a money-moving request: the client's Idempotency-Key scoped to the user and
 * the action, so two users (or two actions) can never collide; without a header every request is new.
 */
export function idempotencyKeyOf(request: FastifyRequest, userId: number, action: string): string {
  const header = request.headers[idempotencyHeader];
  if (header === undefined) return `${action}:${userId}:auto:${randomUUID()}`;
  if (typeof header !== 'string' || !idempotencyKeyPattern.test(header)) throw new AppError('IDEMPOTENCY_KEY_INVALID');
  return `${action}:${userId}:${header}`;
}
