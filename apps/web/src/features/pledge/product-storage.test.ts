import { beforeEach, describe, expect, it } from 'vitest';
import { storageKeys } from '../../lib/storage.ts';
import { installMemoryStorage } from '../../lib/testing/memory-storage.ts';
import { readStoredProduct, storeProduct } from './product-storage.ts';
import { productFixture } from './testing/product-fixture.ts';

describe('the savings detail in session storage (docs/product.md section 3)', () => {
  let session: Storage;
  beforeEach(() => {
    session = installMemoryStorage().session;
  });

  it('gives back the product last read, for its own id only', () => {
    const product = productFixture({ id: 5, kind: 'locked', term_epochs: 90 });
    storeProduct(product);
    expect(readStoredProduct(5)).toEqual(product);
    expect(readStoredProduct(6)).toBeNull();
  });

  it('keeps one product: the next one read replaces it', () => {
    storeProduct(productFixture({ id: 5 }));
    storeProduct(productFixture({ id: 6 }));
    expect(readStoredProduct(5)).toBeNull();
    expect(readStoredProduct(6)?.id).toBe(6);
  });

  it('ignores what is not a product of this version of the contract', () => {
    expect(readStoredProduct(5)).toBeNull();
    session.setItem(storageKeys.pledgeDetail, '{not json');
    expect(readStoredProduct(5)).toBeNull();
    session.setItem(storageKeys.pledgeDetail, JSON.stringify({ ...productFixture({ id: 5 }), status: 'maybe' }));
    expect(readStoredProduct(5)).toBeNull();
  });
});
