import type { FastifyInstance } from 'fastify';

// STUB (issue 16 scaffolding): products, orders and the operator's store API are registered here.
export async function orderRoutes(_app: FastifyInstance) {}
