import { useTranslation } from '../../../lib/translator.ts';
import { Icon } from '../../../components/icon.tsx';
import { cx } from '../../../lib/cx.ts';
import styles from './wallet.module.css';

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
    <section className={cx(styles.routeCard, 'card')}>
      <div className={styles.routeCardEnd}>
        <span className={styles.routeCardLabel}>{t('transfer.from')}</span>
        <strong className={styles.routeCardName}>{from}</strong>
      </div>
      <button type="button" className={styles.routeCardSwap} aria-label={swapLabel} onClick={onSwap} disabled={isDisabled}>
        <Icon name="swap" size={20} />
      </button>
      <div className={cx(styles.routeCardEnd, styles.routeCardEndTo)}>
        <span className={styles.routeCardLabel}>{t('transfer.to')}</span>
        <strong className={styles.routeCardName}>{to}</strong>
      </div>
    </section>
  );
}
