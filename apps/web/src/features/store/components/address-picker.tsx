import { useTranslation } from '../../../lib/translator.ts';
import Popup from 'antd-mobile/es/components/popup';
import type { AddressItem } from '@nadi/api/store-address';
import { Icon } from '../../../components/icon.tsx';
import { EmptyView, ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { useAddressList } from '../api/address-list.ts';
import { addressFailureKeys } from '../address-failure.ts';
import { AddressForm } from './address-form.tsx';
import { AddressSummary } from './address-summary.tsx';
import moneyStyles from '../../../components/money.module.css';
import styles from './address.module.css';

/** Which sheet the order confirmation shows: choose among the addresses, or add one. */
export type AddressSheet = 'choose' | 'add' | null;

interface Props {
  sheet: AddressSheet;
  selectedId: number | null;
  onSheet: (sheet: AddressSheet) => void;
  /** An address was chosen, or added (and then chosen). */
  onSelect: (item: AddressItem) => void;
}

/** The order confirmation's address sheets: the buyer picks or adds an address without leaving the order. */
export function AddressPicker({ sheet, selectedId, onSheet, onSelect }: Props) {
  const { t } = useTranslation();
  const close = () => onSheet(null);
  return (
    <Popup visible={sheet !== null} onMaskClick={close} onClose={close} position="bottom" bodyClassName={styles.addressSheet} destroyOnClose>
      {sheet ? (
        <div data-testid={`address-sheet-${sheet}`}>
          <header className={styles.addressSheetHead}>
            <h2>{t(sheet === 'add' ? 'address.addTitle' : 'address.chooseTitle')}</h2>
            <button type="button" className="icon-btn" onClick={close} aria-label={t('common.close')}>
              <Icon name="close" size={20} />
            </button>
          </header>
          {sheet === 'add' ? <AddSheet onSelect={onSelect} /> : <ChooseSheet selectedId={selectedId} onSelect={onSelect} onAdd={() => onSheet('add')} />}
        </div>
      ) : null}
    </Popup>
  );
}

function AddSheet({ onSelect }: { onSelect: (item: AddressItem) => void }) {
  const addresses = useAddressList();
  if (addresses.isPending) return <LoadingView />;
  return <AddressForm idPrefix="address-inline" hasOtherAddresses={(addresses.data?.total ?? 1) > 0} onSaved={onSelect} />;
}

function ChooseSheet({ selectedId, onSelect, onAdd }: { selectedId: number | null; onSelect: (item: AddressItem) => void; onAdd: () => void }) {
  const { t } = useTranslation();
  const addresses = useAddressList();
  if (addresses.isPending) return <LoadingView />;
  if (!addresses.data) return <ErrorView title={t(addressFailureKeys.list)} error={addresses.error} onRetry={() => void addresses.refetch()} />;
  const { list, max } = addresses.data;
  return (
    <div className={styles.addressSheetBody}>
      {list.length === 0 ? <EmptyView title={t('address.empty')} hint={t('address.emptyHint')} icon="pin" /> : null}
      <div role="radiogroup" aria-label={t('address.chooseTitle')} className={styles.addressSheetBody}>
        {list.map((item) => (
          <button
            key={item.id}
            type="button"
            role="radio"
            aria-checked={item.id === selectedId}
            className={styles.addressChoice}
            onClick={() => onSelect(item)}
            data-testid="address-choice"
          >
            <span className={styles.addressCardRadio} aria-hidden="true">
              {item.id === selectedId ? <Icon name="check" size={12} /> : null}
            </span>
            <span className={styles.addressChoiceBody}>
              <AddressSummary address={item} />
            </span>
          </button>
        ))}
      </div>
      <button type="button" className="btn btn--ghost btn--block" onClick={onAdd} disabled={list.length >= max} data-testid="address-add-inline">
        <Icon name="pin" size={18} />
        {t('address.add')}
      </button>
      {list.length >= max ? <p className={moneyStyles.formHint}>{t('address.limitReached', { n: list.length, max })}</p> : null}
    </div>
  );
}
