import type { PledgeKind } from '@nadi/api/pledge';

// A savings product's name in the reader's language, from its kind and lock term: the server's
// name is English. Shared by the savings screens and the /grow calculator (features never import
// each other); the texts are the locale's `pledge.name` section.

export interface SavingsNameText {
  key: string;
  params: Record<string, number>;
}

/** The name's locale key and values, from the kind and the lock term in epochs (days). */
export function savingsName(kind: PledgeKind, termEpochs: number): SavingsNameText {
  if (kind === 'locked') return { key: 'pledge.name.locked', params: { days: termEpochs } };
  if (kind === 'node' && termEpochs > 0) return { key: 'pledge.name.nodeLocked', params: { days: termEpochs } };
  return { key: `pledge.name.${kind}`, params: {} };
}
