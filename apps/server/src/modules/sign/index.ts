// The daily sign-in module's public surface (docs/team.md "Daily sign-in").
export { signModule } from './routes.ts';
