import { useTranslation } from '../../../lib/translator.ts';
import { useNavigate, useParams } from 'react-router';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { useAddressDetail } from '../api/address-detail.ts';
import { useAddressList } from '../api/address-list.ts';
import { addressFailureKeys } from '../address-failure.ts';
import { AddressForm } from './address-form.tsx';
import moneyStyles from '../../../components/money.module.css';

/** /address/new and /address/:id/edit: the address form, back to the list once saved. */
export default function AddressEditPage() {
  const { t } = useTranslation();
  const params = useParams();
  if (params.id === undefined) return <NewAddress />;
  const id = Number(params.id);
  if (!Number.isSafeInteger(id) || id < 1) return <ErrorView title={t(addressFailureKeys.detail)} />;
  return <EditAddress id={id} />;
}

function NewAddress() {
  const navigate = useNavigate();
  // Whether this is the first address (then it is the default); if the list cannot be read the
  // server still decides, so the form shows anyway.
  const addresses = useAddressList();
  if (addresses.isPending) return <LoadingView />;
  return (
    <div className={moneyStyles.moneyScreen}>
      <AddressForm idPrefix="address-new" hasOtherAddresses={(addresses.data?.total ?? 1) > 0} onSaved={() => void navigate('/address', { replace: true })} />
    </div>
  );
}

function EditAddress({ id }: { id: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const detail = useAddressDetail(id);
  const addresses = useAddressList();
  if (detail.isPending) return <LoadingView />;
  if (!detail.data) return <ErrorView title={t(addressFailureKeys.detail)} error={detail.error} onRetry={() => void detail.refetch()} />;
  return (
    <div className={moneyStyles.moneyScreen}>
      <AddressForm
        // A new form when the address read again differs, so it never edits stale values.
        key={detail.data.updated_at}
        idPrefix="address-edit"
        address={detail.data}
        hasOtherAddresses={(addresses.data?.total ?? 2) > 1}
        onSaved={() => void navigate('/address', { replace: true })}
      />
    </div>
  );
}
