// The product's rules live in the repository (docs/product.md, docs/economy.md, docs/architecture.md):
// no tracked file may cite a document outside it, so a reader of any comment or page can follow every
// citation from a fresh clone. The forbidden strings are built from pieces so this file does not cite
// them itself.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** Paths and names of documents kept outside the repository. */
const outsideCitations = [
  ['..', 'shared'].join('/'),
  ['', 'work', 'shared'].join('/'),
  ['ECONOMY', 'md'].join('.'),
  ['ARCHITECTURE', 'md'].join('.'),
  ['STYLE', 'md'].join('.'),
  ['product-spec', 'md'].join('.'),
];

/** Tracked files that are not text a person writes: the lockfile is npm's, binaries are skipped by content. */
const skippedFiles = new Set(['package-lock.json']);

interface Citation {
  line: number;
  text: string;
}

/** Every line of `text` that cites a document outside the repository (case-sensitive: docs/economy.md is ours). */
export function findOutsideCitations(text: string): Citation[] {
  const found: Citation[] = [];
  text.split('\n').forEach((lineText, index) => {
    for (const citation of outsideCitations) {
      if (lineText.includes(citation)) found.push({ line: index + 1, text: citation });
    }
  });
  return found;
}

function trackedTextFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return listed
    .split('\0')
    .filter((file) => file !== '' && !skippedFiles.has(file.split('/').pop() ?? file))
    .filter((file) => existsSync(join(root, file)));
}

describe('citations stay inside the repository', () => {
  it('finds a citation of an outside document, and leaves the docs/ pages alone', () => {
    for (const citation of outsideCitations) {
      expect(findOutsideCitations(`ok\n// the rule (${citation}, "Team")\n`)).toEqual([{ line: 2, text: citation }]);
    }
    expect(findOutsideCitations('// docs/economy.md "Team and rewards"; docs/architecture.md; docs/product.md section 5')).toEqual([]);
  });

  it('no tracked file cites a document outside the repository', () => {
    const files = trackedTextFiles();
    expect(files.length).toBeGreaterThan(100);
    const offenders: string[] = [];
    for (const file of files) {
      const bytes = readFileSync(join(root, file));
      if (bytes.includes(0)) continue; // binary (images)
      for (const { line, text } of findOutsideCitations(bytes.toString('utf8'))) offenders.push(`${file}:${line}: ${text}`);
    }
    expect(offenders).toEqual([]);
  });
});
