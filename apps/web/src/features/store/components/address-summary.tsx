import { useTranslation } from 'react-i18next';
import type { AddressItem } from '@nadi/api/store-address';
import { formatPhone } from '../address-form-state.ts';
import './address.css';

/** Receiver, phone and the address itself, as the list, the picker and the order confirmation show them (phrasing content only: it may sit in a button). */
export function AddressSummary({ address }: { address: AddressItem }) {
  const { t } = useTranslation();
  return (
    <>
      <span className="address-card__head">
        <span className="address-card__name">{address.receiver_name}</span>
        <span className="address-card__phone mono">{formatPhone(address.phone)}</span>
        {address.is_default ? <span className="chip chip--accent">{t('address.default')}</span> : null}
      </span>
      <span className="address-card__text">
        {address.area} {address.detail}
      </span>
    </>
  );
}
