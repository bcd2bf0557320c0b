import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/icon.tsx';

interface Props {
  from: string;
  to: string;
  swapLabel: string;
  onSwap: () => void;
  isDisabled?: boolean;
}

/** Where money leaves and where it arrives, with a button that turns the direction round. */
export function RouteCard({ from, to, swapLabel, onSwap, isDisabled = false }: Props) {
  const { t } = useTranslation();
  return (
    <section className="route-card card">
      <div className="route-card__end">
        <span className="route-card__label">{t('transfer.from')}</span>
        <strong className="route-card__name">{from}</strong>
      </div>
      <button type="button" className="route-card__swap" aria-label={swapLabel} onClick={onSwap} disabled={isDisabled}>
        <Icon name="swap" size={20} />
      </button>
      <div className="route-card__end route-card__end--to">
        <span className="route-card__label">{t('transfer.to')}</span>
        <strong className="route-card__name">{to}</strong>
      </div>
    </section>
  );
}
