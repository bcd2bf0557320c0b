import type { FastifyInstance } from 'fastify';

// STUB (issue 17 scaffolding): the node API is registered here.
export async function nodeModule(_app: FastifyInstance) {}
