import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Link, useSearchParams } from 'react-router';
import { assets, type Asset, type AssetsData } from '@nadi/api/wallet';
import { Icon } from '../../../components/icon.tsx';
import { formatMoney } from '../../../lib/money-format.ts';
import { notify } from '../../../lib/notify.ts';
import { useTransfer, type TransferAccount } from '../api/transfer.ts';
import { availableUnits } from '../balances.ts';
import { useAmountInput } from '../../../lib/amount/use-amount-input.ts';
import { amountDigitsShown } from '../../../lib/money-format.ts';
import { showSubmitError } from '../../../lib/submit-error.ts';
import { AmountField } from '../../../components/amount-field.tsx';
import { AssetsGate } from './assets-gate.tsx';
import { RouteCard } from './route-card.tsx';
import { Segmented } from '../../../components/segmented.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';

export default function TransferPage() {
  return <AssetsGate>{(data) => <TransferForm data={data} />}</AssetsGate>;
}

/** A link may preselect the asset and the source account (/wallet/transfer?from=trade&asset=USDT). */
function useInitialChoice(): { asset: Asset; from: TransferAccount } {
  const [params] = useSearchParams();
  const asset = assets.find((value) => value === params.get('asset')) ?? 'NADI';
  return { asset, from: params.get('from') === 'trade' ? 'trade' : 'fund' };
}

function TransferForm({ data }: { data: AssetsData }) {
  const { t } = useTranslation();
  const initial = useInitialChoice();
  const [asset, setAsset] = useState<Asset>(initial.asset);
  const [from, setFrom] = useState<TransferAccount>(initial.from);
  const to: TransferAccount = from === 'fund' ? 'trade' : 'fund';
  const available = availableUnits(data, from, asset);
  const amount = useAmountInput(available);
  const transfer = useTransfer();

  function submit(event: FormEvent) {
    event.preventDefault();
    const check = amount.trySubmit();
    if (!check.ok || transfer.isPending) return;
    transfer.mutate(
      { asset, from, to, amount: check.text },
      {
        onSuccess: (result) => {
          notify(t('transfer.success', { amount: formatMoney(result.amount, amountDigitsShown), asset: result.asset }), 'success');
          amount.setText('');
        },
        onError: (error) => showSubmitError(error, amount.setServerError, t),
      },
    );
  }

  return (
    <form className={cx(moneyStyles.moneyScreen, 'wallet-form')} onSubmit={submit} noValidate>
      <Segmented label={t('transfer.asset')} value={asset} options={assets.map((value) => ({ value, label: value }))} onChange={setAsset} />
      <RouteCard
        from={t(`accounts.${from}`)}
        to={t(`accounts.${to}`)}
        swapLabel={t('transfer.swap')}
        onSwap={() => setFrom(to)}
        isDisabled={transfer.isPending}
      />
      <AmountField
        id="transfer-amount"
        testId="transfer-amount"
        value={amount.text}
        onChange={amount.setText}
        asset={asset}
        availableUnits={available}
        error={amount.serverError ?? (amount.errorKey ? t(amount.errorKey) : null)}
      />
      <p className={moneyStyles.formHint}>{t('transfer.hint')}</p>
      <button type="submit" className="btn btn--block" data-testid="transfer-submit" disabled={transfer.isPending}>
        {transfer.isPending ? t('transfer.submitting') : t('transfer.submit')}
      </button>
      <Link to="/wallet/transfer/list" className={moneyStyles.textLink}>
        {t('nav.transferList')}
        <Icon name="chevron" size={16} />
      </Link>
    </form>
  );
}
