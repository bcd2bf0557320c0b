// The notice module's public surface: its plugin.
export { noticeModule } from './routes.ts';
