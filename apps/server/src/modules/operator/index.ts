// The operator console module's public surface (docs/operator.md).
export { operatorModule } from './routes.ts';
