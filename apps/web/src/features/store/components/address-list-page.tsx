import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import type { AddressItem } from '@nadi/api/store-address';
import { Icon } from '../../../components/icon.tsx';
import { EmptyView, ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { confirmDialog } from '../../../lib/confirm-dialog.ts';
import { notify } from '../../../lib/notify.ts';
import { useDeleteAddress } from '../api/address-delete.ts';
import { useAddressList } from '../api/address-list.ts';
import { useSetDefaultAddress } from '../api/address-set-default.ts';
import { addressFailureKeys, addressFailureText } from '../address-failure.ts';
import { AddressSummary } from './address-summary.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './address.module.css';

/** /address (the side menu's "address"): my delivery addresses, the default first; set default, edit, delete, add. */
export default function AddressListPage() {
  const { t } = useTranslation();
  const addresses = useAddressList();
  if (addresses.isPending) return <LoadingView />;
  if (!addresses.data) return <ErrorView title={t(addressFailureKeys.list)} error={addresses.error} onRetry={() => void addresses.refetch()} />;
  const { list, max } = addresses.data;
  const isFull = list.length >= max;
  return (
    <div className={moneyStyles.moneyScreen}>
      {list.length === 0 ? (
        <EmptyView title={t('address.empty')} hint={t('address.emptyHint')} icon="pin" />
      ) : (
        <ul className={styles.addressList} data-testid="address-list">
          {list.map((item) => (
            <li key={item.id}>
              <AddressCard item={item} />
            </li>
          ))}
        </ul>
      )}
      <div className={styles.addressFooter}>
        {isFull ? (
          <button type="button" className="btn btn--block" disabled>
            <Icon name="pin" size={18} />
            {t('address.add')}
          </button>
        ) : (
          <Link to="/address/new" className="btn btn--block" data-testid="address-add">
            <Icon name="pin" size={18} />
            {t('address.add')}
          </Link>
        )}
        <p className={moneyStyles.formHint}>{t(isFull ? 'address.limitReached' : 'address.limitHint', { n: list.length, max })}</p>
      </div>
    </div>
  );
}

function AddressCard({ item }: { item: AddressItem }) {
  const { t } = useTranslation();
  const setDefault = useSetDefaultAddress();
  const remove = useDeleteAddress();
  const isBusy = setDefault.isPending || remove.isPending;

  function makeDefault() {
    if (item.is_default || isBusy) return;
    setDefault.mutate(item.id, {
      onSuccess: () => notify(t('address.defaultSet'), 'success'),
      onError: (error) => notify(addressFailureText(error, 'setDefault', t), 'fail'),
    });
  }

  async function confirmDelete() {
    // docs/product.md section 5: deleting asks first.
    const isConfirmed = await confirmDialog({ content: t('address.deleteConfirm'), confirmText: t('address.delete'), cancelText: t('common.cancel') });
    if (!isConfirmed) return;
    remove.mutate(item.id, {
      onSuccess: () => notify(t('address.deleted'), 'success'),
      onError: (error) => notify(addressFailureText(error, 'delete', t), 'fail'),
    });
  }

  return (
    <article className={cx(styles.addressCard, 'card')} data-testid="address-item" aria-busy={isBusy}>
      <AddressSummary address={item} />
      <div className={styles.addressCardActions}>
        <button
          type="button"
          role="radio"
          aria-checked={item.is_default}
          className={cx(styles.addressCardSetDefault, item.is_default && styles.addressCardSetDefaultOn)}
          onClick={makeDefault}
          disabled={isBusy}
          data-testid="address-set-default"
        >
          <span className={styles.addressCardRadio} aria-hidden="true">
            {item.is_default ? <Icon name="check" size={12} /> : null}
          </span>
          {t(item.is_default ? 'address.default' : 'address.setDefault')}
        </button>
        <Link to={`/address/${item.id}/edit`} className={styles.addressCardAction} data-testid="address-edit">
          {t('address.edit')}
        </Link>
        <button
          type="button"
          className={cx(styles.addressCardAction, styles.addressCardActionDanger)}
          onClick={() => void confirmDelete()}
          disabled={isBusy}
          data-testid="address-delete"
        >
          {t('address.delete')}
        </button>
      </div>
    </article>
  );
}
