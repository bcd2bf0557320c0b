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

/** What a product list says of a name: enough to translate a record that carries only the name. */
export interface NamedProduct {
  name: string;
  kind: PledgeKind;
  term_epochs: number;
}

/**
 * Release records and interest lines carry only the server's (English) name of their product: the
 * product of that name in the list gives its kind and term. Null when the list is not read or has
 * no product of that name (renamed since); the screen then shows the server's name.
 */
export function savingsNameOf(serverName: string, products: readonly NamedProduct[] | undefined): SavingsNameText | null {
  const product = products?.find((item) => item.name === serverName);
  return product ? savingsName(product.kind, product.term_epochs) : null;
}
