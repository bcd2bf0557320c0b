import type { ProofTarget } from './verify-run.ts';

/**
 * "Download my proof": the proof exactly as the API answered it (snapshot or rewards, the proof
 * and the user's expected figures). A balance proof is the input of `npm run verify:reserves --
 * --proof <file>`, which checks it without this app (docs/transparency.md, "The verifier").
 */
export function proofFile(target: ProofTarget): { name: string; text: string } {
  const name = target.kind === 'balance' ? `nadi-proof-snapshot-${target.data.snapshot.id}.json` : `nadi-proof-rewards-${target.data.rewards.epoch}.json`;
  return { name, text: `${JSON.stringify(target.data, null, 2)}\n` };
}

/** Saves the file through an `<a download>` of an object URL (no server round trip). */
export function downloadProof(target: ProofTarget): void {
  const { name, text } = proofFile(target);
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
