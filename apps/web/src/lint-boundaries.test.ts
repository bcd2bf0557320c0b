import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The web's boundaries are enforced by the repository's own lint config on the file an import
// resolves to: these snippets are linted as if they sat where `filePath` says, and import real
// files, so a rule that only matched the import's text (or no rule at all) fails here.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: repoRoot });
const tradeFile = 'apps/web/src/features/trade/boundary-fixture.ts';

async function boundaryErrors(code: string, filePath = tradeFile): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('web boundaries (eslint, on the imported file)', () => {
  it("refuses a feature importing another feature's file by a relative path", async () => {
    const errors = await boundaryErrors("import { findAccount } from '../wallet/balances.ts';\nexport const f = findAccount;\n");
    expect(errors).toEqual([expect.stringMatching(/Features never import each other/)]);
  });

  it('refuses it from a subfolder of the feature, by the package path and by an absolute path too', async () => {
    const fromSubfolder = await boundaryErrors(
      "import { findAccount } from '../../wallet/balances.ts';\nexport const f = findAccount;\n",
      'apps/web/src/features/trade/components/boundary-fixture.tsx',
    );
    const byPackage = await boundaryErrors("import { findAccount } from '@nadi/web/src/features/wallet/balances.ts';\nexport const f = findAccount;\n");
    const absolute = `${repoRoot}apps/web/src/features/wallet/balances.ts`;
    const byAbsolutePath = await boundaryErrors(`import { findAccount } from '${absolute}';\nexport const f = findAccount;\n`);
    expect([fromSubfolder, byPackage, byAbsolutePath]).toEqual([[expect.any(String)], [expect.any(String)], [expect.any(String)]]);
  });

  it("accepts a feature importing lib/, components/, the contract and the feature's own files", async () => {
    const code = [
      "import { amountDigitsShown } from '../../lib/money-format.ts';",
      "import { checkOrder } from './order-form.ts';",
      "import { CopyButton } from '../../components/copy-button.tsx';",
      "import { errorReasons } from '@nadi/api/errors';",
      'export const all = [amountDigitsShown, checkOrder, CopyButton, errorReasons];',
      '',
    ].join('\n');
    expect(await boundaryErrors(code)).toEqual([]);
  });

  it('refuses shared code importing a feature or the app shell', async () => {
    const fromLib = await boundaryErrors(
      "import { findAccount } from '../features/wallet/balances.ts';\nimport { decideGuard } from '../app/guards.ts';\nexport const f = [findAccount, decideGuard];\n",
      'apps/web/src/lib/boundary-fixture.ts',
    );
    const fromComponents = await boundaryErrors(
      "import { findAccount } from '../features/wallet/balances.ts';\nexport const f = findAccount;\n",
      'apps/web/src/components/boundary-fixture.tsx',
    );
    expect(fromLib).toEqual([expect.stringMatching(/Shared code never imports/), expect.stringMatching(/Shared code never imports/)]);
    expect(fromComponents).toEqual([expect.stringMatching(/Shared code never imports/)]);
  });

  it('refuses a feature importing the app shell', async () => {
    const errors = await boundaryErrors("import { decideGuard } from '../../app/guards.ts';\nexport const f = decideGuard;\n");
    expect(errors).toEqual([expect.stringMatching(/app shell/)]);
  });

  it('keeps the phone app and the console apart', async () => {
    const webToAdmin = await boundaryErrors(
      "import { amountProblem } from '../../../admin/src/lib/decimal.ts';\nexport const f = amountProblem;\n",
      'apps/web/src/lib/boundary-fixture.ts',
    );
    const adminToWeb = await boundaryErrors(
      "import { amountDigitsShown } from '../../../web/src/lib/money-format.ts';\nexport const f = amountDigitsShown;\n",
      'apps/admin/src/lib/boundary-fixture.ts',
    );
    expect(webToAdmin).toEqual([expect.stringMatching(/never imports the console/)]);
    expect(adminToWeb).toEqual([expect.stringMatching(/never imports the phone app/)]);
  });
});
