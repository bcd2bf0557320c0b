import { addressGroups, checksummed } from '../lib/address.ts';
import { cx } from '../lib/cx.ts';
import styles from './address-text.module.css';

interface Props {
  address: string;
  className?: string;
  testId?: string;
}

/**
 * A whole address, EIP-55 checksummed, in groups of four that wrap between groups, never inside
 * one. No spaces between the groups: a selection copies the address as one word.
 */
export function AddressText({ address, className, testId }: Props) {
  const shown = checksummed(address);
  return (
    <p className={cx(styles.addressText, 'mono', className)} data-testid={testId} aria-label={shown}>
      {addressGroups(shown).map((group, index) => (
        <span key={index}>{group}</span>
      ))}
    </p>
  );
}
