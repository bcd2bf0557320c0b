// The node module's public surface (docs/nodes-and-savings.md).
export { nodeModule } from './routes.ts';
