import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The server's module boundaries are enforced by the repository's own lint config, on the file an
// import resolves to: these snippets are linted as if they sat in the market module, so removing or
// breaking the rule (or matching only the import's text) fails here.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: repoRoot });
const marketFile = 'apps/server/src/modules/market/boundary-fixture.ts';

async function boundaryErrors(code: string, filePath = marketFile): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('server module boundaries (eslint)', () => {
  it("refuses a module importing another module's repo", async () => {
    const errors = await boundaryErrors("import { findUserByAddress } from '../user/repo.ts';\nexport const f = findUserByAddress;\n");
    expect(errors).toEqual([expect.stringMatching(/only through its index\.ts/)]);
  });

  it('refuses it from a subfolder of a module too', async () => {
    const errors = await boundaryErrors(
      "import { nadiPrice } from '../../wallet/price.ts';\nexport const f = nadiPrice;\n",
      'apps/server/src/modules/market/views/boundary-fixture.ts',
    );
    expect(errors).toHaveLength(1);
  });

  it('refuses it by a path that goes up past modules/ and down again', async () => {
    const errors = await boundaryErrors("import { findUserByAddress } from '../../modules/user/repo.ts';\nexport const f = findUserByAddress;\n");
    expect(errors).toEqual([expect.stringMatching(/only through its index\.ts/)]);
  });

  it("accepts another module's index, the module's own files, lib/ and db/", async () => {
    const code = [
      "import { findUserByAddress } from '../user/index.ts';",
      "import { marketSymbol } from './params.ts';",
      "import { AppError } from '../../lib/app-error.ts';",
      "import { rowsOf } from '../../db/rows.ts';",
      'export const all = [findUserByAddress, marketSymbol, AppError, rowsOf];',
      '',
    ].join('\n');
    expect(await boundaryErrors(code)).toEqual([]);
  });

  it("lets a module's schema.ts import another module's schema.ts (foreign keys), and nothing else does", async () => {
    const code = "import { users } from '../user/schema.ts';\nexport const f = users;\n";
    expect(await boundaryErrors(code, 'apps/server/src/modules/market/schema.ts')).toEqual([]);
    expect(await boundaryErrors(code)).toEqual([expect.stringMatching(/only through its index\.ts/)]);
  });

  it('refuses a module from the server lib/ (lib sits under every module)', async () => {
    const errors = await boundaryErrors(
      "import { authenticate } from '../modules/auth/index.ts';\nexport const f = authenticate;\n",
      'apps/server/src/lib/boundary-fixture.ts',
    );
    expect(errors).toEqual([expect.stringMatching(/lib\/ never imports a module/)]);
    const nested = await boundaryErrors(
      "import { ledgerAccounts } from '../../modules/ledger/schema.ts';\nexport const f = ledgerAccounts;\n",
      'apps/server/src/lib/sub/fixture.ts',
    );
    expect(nested).toHaveLength(1);
  });

  it("refuses a module's internals from the benches, attack tests, the seed and the demo; accepts its index", async () => {
    const internal = "import { insertSession } from '../src/modules/auth/repo.ts';\nexport const f = insertSession;\n";
    expect(await boundaryErrors(internal, 'apps/server/bench/boundary-fixture.ts')).toEqual([expect.stringMatching(/only through its index\.ts/)]);
    const nested = "import { markCredited } from '../modules/onchain/deposits/repo.ts';\nexport const f = markCredited;\n";
    for (const dir of ['apps/server/src/attack', 'apps/server/src/demo']) {
      expect(await boundaryErrors(nested, `${dir}/boundary-fixture.ts`)).toHaveLength(1);
    }
    const seed = "import { upsertModel } from '../../modules/device/repo.ts';\nexport const f = upsertModel;\n";
    expect(await boundaryErrors(seed, 'apps/server/src/db/seed/boundary-fixture.ts')).toHaveLength(1);
    const surface =
      "import { auditLedger } from '../src/modules/ledger/index.ts';\nimport { rowsOf } from '../src/db/rows.ts';\nexport const all = [auditLedger, rowsOf];\n";
    expect(await boundaryErrors(surface, 'apps/server/bench/boundary-fixture.ts')).toEqual([]);
  });

  it('refuses the app shell from a module', async () => {
    const errors = await boundaryErrors("import { buildApp } from '../../app.ts';\nexport const f = buildApp;\n");
    expect(errors).toEqual([expect.stringMatching(/app shell/)]);
  });

  it('refuses the test helpers outside tests, and lets a test use them', async () => {
    const code = "import { eventually } from '../../test/eventually.ts';\nexport const f = eventually;\n";
    expect(await boundaryErrors(code)).toEqual([expect.stringMatching(/test helpers/)]);
    expect(await boundaryErrors(code, 'apps/server/src/modules/market/boundary-fixture.test.ts')).toEqual([]);
  });
});

describe('packages never import apps (eslint)', () => {
  it('refuses a package importing an app by a relative path or by its package name', async () => {
    const file = 'packages/api/src/boundary-fixture.ts';
    const relative = await boundaryErrors("import { AppError } from '../../../apps/server/src/lib/app-error.ts';\nexport const f = AppError;\n", file);
    const byName = await boundaryErrors("import { AppError } from '@nadi/server/src/lib/app-error.ts';\nexport const f = AppError;\n", file);
    expect([relative, byName]).toEqual([[expect.stringMatching(/never import apps/)], [expect.stringMatching(/never import apps/)]]);
  });
});
