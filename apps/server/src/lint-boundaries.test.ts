import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The server's module boundaries are enforced by the repository's own lint config: these snippets
// are linted as if they sat in the market module, so removing or breaking the rule fails here.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: repoRoot });
const marketFile = 'apps/server/src/modules/market/boundary-fixture.ts';

async function boundaryErrors(code: string, filePath = marketFile): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('server module boundaries (eslint)', () => {
  it("refuses a module importing another module's repo", async () => {
    const errors = await boundaryErrors("import { findUserByAddress } from '../user/repo.ts';\nexport const f = findUserByAddress;\n");
    expect(errors).toEqual([expect.stringMatching(/only through its index\.ts/)]);
  });

  it('refuses it from a subfolder of a module too', async () => {
    const errors = await boundaryErrors(
      "import { nadiPrice } from '../../wallet/price.ts';\nexport const f = nadiPrice;\n",
      'apps/server/src/modules/market/demo/boundary-fixture.ts',
    );
    expect(errors).toHaveLength(1);
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

  it('refuses the app shell from a module', async () => {
    const errors = await boundaryErrors("import { buildApp } from '../../app.ts';\nexport const f = buildApp;\n");
    expect(errors).toEqual([expect.stringMatching(/app shell/)]);
  });
});
