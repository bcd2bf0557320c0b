import type { FastifyInstance } from 'fastify';

// SCAFFOLD (issue 5, deposits helper replaces this file with the routes of onchainRoutes it owns).
export async function rechargeModule(_app: FastifyInstance) {}
