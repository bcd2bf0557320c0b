import type { FastifyInstance } from 'fastify';

// STUB (issue 16 scaffolding): the delivery address API is registered here.
export async function addressRoutes(_app: FastifyInstance) {}
