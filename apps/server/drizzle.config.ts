import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Each module's tables live in its own schema.ts (docs/architecture.md "Table ownership").
  schema: './apps/server/src/modules/*/schema.ts',
  out: './apps/server/src/db/migrations',
});
