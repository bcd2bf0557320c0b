// One lint setup for the whole repository. Besides the usual rules it enforces the import
// boundaries of docs/architecture.md ("Layout"): packages never import apps; in the web, shared code (lib,
// components) never imports features or the app shell, and features never import each other; on
// the server a module imports another module only through its index.ts (docs/decisions.md), and
// lib/ imports no module (docs/architecture.md).
import { existsSync, readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX as importXPlugin } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const featuresDir = 'apps/web/src/features';
const features = existsSync(featuresDir)
  ? readdirSync(featuresDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];

// The web's boundaries are checked on the file an import resolves to, not on its text: a relative
// `../wallet/balances.ts`, a package path (`@nadi/web/src/...`) and an absolute one all land on the
// same file, so none of them slips past (apps/web/src/lint-boundaries.test.ts proves it).
const repoRoot = import.meta.dirname;
const webSrc = 'apps/web/src';
const featuresMessage = 'Features never import each other; move shared code to src/lib or src/components.';
const webZones = [
  ...features.map((feature) => ({
    target: `${featuresDir}/${feature}`,
    from: featuresDir,
    except: [`./${feature}`],
    message: featuresMessage,
  })),
  { target: featuresDir, from: `${webSrc}/app`, message: 'Features never import the app shell.' },
  {
    target: [`${webSrc}/lib`, `${webSrc}/components`],
    from: [featuresDir, `${webSrc}/app`],
    message: 'Shared code never imports features or the app shell.',
  },
  // The phone app and the console are separate bundles: neither imports the other (the phone's
  // download budget, apps/web/build.test.ts, must never carry console code).
  { target: 'apps/web', from: 'apps/admin', message: 'The phone app never imports the console.' },
  { target: 'apps/admin', from: 'apps/web', message: 'The console never imports the phone app.' },
];

const serverModulesDir = 'apps/server/src/modules';
const serverModules = existsSync(serverModulesDir)
  ? readdirSync(serverModulesDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];

// Checked on the file an import resolves to, like the web's: "../user/repo.ts", "../../user/repo.ts"
// from a subfolder and "../../modules/user/repo.ts" all land on the user module's repo. Another
// module's index.ts passes (apps/server/src/lint-boundaries.test.ts).
const serverSrc = 'apps/server/src';
const moduleZones = serverModules.map((module) => ({
  target: `${serverModulesDir}/${module}`,
  from: serverModulesDir,
  except: [`./${module}`, ...serverModules.filter((m) => m !== module).map((m) => `./${m}/index.ts`)],
  message: 'A server module imports another module only through its index.ts (its public surface); move what you need there.',
}));
const serverShellZone = {
  target: serverModulesDir,
  from: [`${serverSrc}/app.ts`, `${serverSrc}/main.ts`, `${serverSrc}/plugins`, `${serverSrc}/test`],
  message: 'Server modules never import the app shell (app.ts, main.ts, plugins/) or the test helpers; those import modules, not the other way.',
};
// A module's schema.ts may import another module's schema.ts, for a foreign key only
// (docs/architecture.md "Server modules and their tables"); table-ownership.test.ts keeps other
// files off them.
const schemaZones = moduleZones.map((zone) => ({
  ...zone,
  except: [...zone.except, ...serverModules.filter((m) => `${serverModulesDir}/${m}` !== zone.target).map((m) => `./${m}/schema.ts`)],
}));
// The server's lib/ sits under every module: it imports no module (modules import lib).
const serverLibZone = {
  target: `${serverSrc}/lib`,
  from: serverModulesDir,
  message: 'The server lib/ never imports a module; pass what it needs in, or move the code into the module.',
};
const importX = { 'import-x': importXPlugin };
const importXSettings = { 'import-x/resolver-next': [createNodeResolver()] };
const restrictedPaths = (zones) => ({ 'import-x/no-restricted-paths': ['error', { basePath: repoRoot, zones }] });

// The code around the modules (benches, attack tests, the seed, the development demo) uses every
// module as another module would: through its index.ts only, checked on the resolved file
// ("../src/modules/user/repo.ts" is refused, "../src/modules/user/index.ts" passes; a module's
// subfolders are internals too).
const aroundModules = ['apps/server/bench', `${serverSrc}/attack`, `${serverSrc}/db/seed`, `${serverSrc}/demo`];
const aroundModulesZone = {
  target: aroundModules,
  from: serverModulesDir,
  except: serverModules.map((m) => `./${m}/index.ts`),
  message:
    "Benches, attack tests, the seed and the demo use a server module only through its index.ts (its public surface); add what you need to the module's index.ts.",
};
const aroundModulesBoundaries = {
  files: aroundModules.map((dir) => `${dir}/**/*.ts`),
  plugins: importX,
  settings: importXSettings,
  rules: restrictedPaths([aroundModulesZone]),
};

// Tests inside a module follow the same rule for other modules; they may build apps and use src/test/.
const serverModuleBoundaries = [
  {
    files: [`${serverModulesDir}/**/*.ts`],
    ignores: ['**/*.test.ts', `${serverModulesDir}/*/schema.ts`],
    plugins: importX,
    settings: importXSettings,
    rules: restrictedPaths([...moduleZones, serverShellZone]),
  },
  {
    files: [`${serverModulesDir}/*/schema.ts`],
    plugins: importX,
    settings: importXSettings,
    rules: restrictedPaths([...schemaZones, serverShellZone]),
  },
  {
    files: [`${serverSrc}/lib/**/*.ts`],
    plugins: importX,
    settings: importXSettings,
    rules: restrictedPaths([serverLibZone]),
  },
  {
    files: [`${serverModulesDir}/**/*.test.ts`],
    plugins: importX,
    settings: importXSettings,
    rules: restrictedPaths(moduleZones),
  },
];

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
    plugins: importX,
    settings: importXSettings,
    rules: restrictedPaths([{ target: 'packages', from: 'apps', message: 'packages/* never import apps/*.' }]),
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'apps/admin/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'apps/admin/**/*.{ts,tsx}'],
    plugins: importX,
    settings: importXSettings,
    rules: restrictedPaths(webZones),
  },
  ...serverModuleBoundaries,
  aroundModulesBoundaries,
);
