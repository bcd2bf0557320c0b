import { useTranslation } from '../../../lib/translator.ts';
import type { AddressItem } from '@nadi/api/store-address';
import { formatPhone } from '../address-form-state.ts';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './address.module.css';

/** Receiver, phone and the address itself, as the list, the picker and the order confirmation show them (phrasing content only: it may sit in a button). */
export function AddressSummary({ address }: { address: AddressItem }) {
  const { t } = useTranslation();
  return (
    <>
      <span className={styles.addressCardHead}>
        <span className={styles.addressCardName}>{address.receiver_name}</span>
        <span className={cx(styles.addressCardPhone, 'mono')}>{formatPhone(address.phone)}</span>
        {address.is_default ? <span className={cx(moneyStyles.chip, moneyStyles.chipAccent)}>{t('address.default')}</span> : null}
      </span>
      <span className={styles.addressCardText}>
        {address.area} {address.detail}
      </span>
    </>
  );
}
