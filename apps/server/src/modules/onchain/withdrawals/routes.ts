import type { FastifyInstance } from 'fastify';

// SCAFFOLD (issue 5, withdrawals helper replaces this file with the routes of onchainRoutes it owns).
export async function withdrawModule(_app: FastifyInstance) {}
