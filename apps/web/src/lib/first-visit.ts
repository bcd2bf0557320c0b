import { readItem, storageKeys, writeItem } from './storage.ts';

/** docs/product.md section 2: the first visit at / passes through /security-check once; this flag remembers. */
export function hasVisitedSecurityCheck(): boolean {
  return readItem('local', storageKeys.securityChecked) === '1';
}

export function markSecurityChecked(): void {
  writeItem('local', storageKeys.securityChecked, '1');
}
