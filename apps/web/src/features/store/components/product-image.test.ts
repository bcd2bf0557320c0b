import { describe, expect, it } from 'vitest';
import { storeImageKeys } from '@nadi/api/store';
import { productImageUrl } from './product-image.tsx';

describe('product images', () => {
  it('ships a picture for every image key of the contract', () => {
    for (const key of storeImageKeys) expect(productImageUrl(key)).toMatch(new RegExp(`${key}\\.svg|^data:image/svg\\+xml`));
  });

  it('has none for a key this build does not know (the placeholder shows), nor for inherited names', () => {
    expect(productImageUrl('nadi-box-9')).toBeNull();
    expect(productImageUrl('toString')).toBeNull();
    expect(productImageUrl('')).toBeNull();
  });
});
