import type { FastifyInstance } from 'fastify';

// STUB (issue 17 scaffolding): the pledge API is registered here.
export async function pledgeModule(_app: FastifyInstance) {}
