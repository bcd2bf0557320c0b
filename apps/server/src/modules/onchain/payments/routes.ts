import type { FastifyInstance } from 'fastify';

// SCAFFOLD (issue 5, payments helper replaces this file with the routes of onchainRoutes it owns).
export async function paymentModule(_app: FastifyInstance) {}
