// The health module's public surface: its plugin (/healthz, /metrics).
export { healthModule } from './routes.ts';
