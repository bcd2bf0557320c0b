// One lint setup for the whole repository. Besides the usual rules it enforces the import
// boundaries of ARCHITECTURE.md: packages never import apps; in the web, shared code (lib,
// components) never imports features or the app shell, and features never import each other; on
// the server a module imports another module only through its index.ts (docs/decisions.md).
import { existsSync, readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const featuresDir = 'apps/web/src/features';
const features = existsSync(featuresDir)
  ? readdirSync(featuresDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];

const featureBoundaries = features.map((feature) => ({
  files: [`${featuresDir}/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: features.filter((f) => f !== feature).flatMap((f) => [`**/features/${f}/**`, `**/features/${f}`]),
            message: 'Features never import each other; move shared code to src/lib or src/components.',
          },
          { group: ['**/app/**', '**/app'], message: 'Features never import the app shell.' },
        ],
      },
    ],
  },
}));

const serverModulesDir = 'apps/server/src/modules';
const serverModules = existsSync(serverModulesDir)
  ? readdirSync(serverModulesDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];

// Relative specifiers only (modules import each other by path): "../user/repo.ts" from a module's
// top folder, "../../user/repo.ts" from a subfolder. The module's index.ts (or its folder) passes.
const otherModuleInternals = (module) => ({
  regex: `^(\\.\\./)+(${serverModules.filter((m) => m !== module).join('|')})/(?!index\\.ts$)`,
  message: 'A server module imports another module only through its index.ts (its public surface); move what you need there.',
});
const serverShell = {
  regex: '^(\\.\\./)+(app|main)\\.ts$|^(\\.\\./)+(plugins|test)/',
  message: 'Server modules never import the app shell (app.ts, main.ts, plugins/) or the test helpers; those import modules, not the other way.',
};

// A module's schema.ts may import another module's schema.ts, for a foreign key only
// (docs/architecture.md "Table ownership"); table-ownership.test.ts keeps other files off them.
const otherModuleInternalsButSchema = (module) => ({
  ...otherModuleInternals(module),
  regex: otherModuleInternals(module).regex.replace('(?!index\\.ts$)', '(?!(index|schema)\\.ts$)'),
});

// Tests inside a module follow the same rule for other modules; they may build apps and use src/test/.
const serverModuleBoundaries = serverModules.flatMap((module) => [
  {
    files: [`${serverModulesDir}/${module}/**/*.ts`],
    ignores: ['**/*.test.ts', `${serverModulesDir}/${module}/schema.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherModuleInternals(module), serverShell] }] },
  },
  {
    files: [`${serverModulesDir}/${module}/schema.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherModuleInternalsButSchema(module), serverShell] }] },
  },
  {
    files: [`${serverModulesDir}/${module}/**/*.test.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherModuleInternals(module)] }] },
  },
]);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.tools/**',
      '.data/**',
      'packages/chain/src/artifacts.ts',
      'packages/chain/cache/**',
      'packages/chain/artifacts/**',
      'e2e/artifacts/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['info', 'warn', 'error'] }],
    },
  },
  {
    files: ['packages/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/apps/**', '@nadi/server', '@nadi/server/*', '@nadi/web', '@nadi/web/*'], message: 'packages/* never import apps/*.' }] },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'apps/admin/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The phone app and the console are separate bundles: neither imports the other (the phone's
    // download budget, apps/web/build.test.ts, must never carry console code).
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/apps/admin/**', '@nadi/admin', '@nadi/admin/*'], message: 'The phone app never imports the console.' }] },
      ],
    },
  },
  {
    files: ['apps/admin/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/apps/web/**', '@nadi/web', '@nadi/web/*'], message: 'The console never imports the phone app.' }] },
      ],
    },
  },
  {
    files: ['apps/web/src/lib/**/*.{ts,tsx}', 'apps/web/src/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/features/**', '**/app/**'], message: 'Shared code never imports features or the app shell.' }] },
      ],
    },
  },
  {
    // The server's lib/ is shared code under every module: it imports no module (modules import lib).
    files: ['apps/server/src/lib/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+modules/', message: 'The server lib/ never imports a module; pass what it needs in, or move the code into the module.' },
          ],
        },
      ],
    },
  },
  ...featureBoundaries,
  ...serverModuleBoundaries,
);
