import type { FastifyRequest } from 'fastify';
import { authHeader } from '@nadi/api/common';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { authenticate } from './service.ts';

/**
 * The signed-in user of a public route that answers more to a signed-in caller (whether they may
 * join a product): their id, or null signed out. A missing, unknown or expired token reads as signed
 * out rather than failing a page anyone may see.
 */
export async function optionalUserId(deps: AppDeps, request: FastifyRequest): Promise<number | null> {
  const header = request.headers[authHeader];
  if (typeof header !== 'string' || header.trim().length === 0) return null;
  try {
    return (await authenticate(deps, header)).userId;
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}
