import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import { Icon } from '../../../components/icon.tsx';
import { shortAddress } from '../../../lib/format.ts';
import { requestSignIn } from '../../../lib/sign-in-request.ts';
import { useSession } from '../../../lib/use-session.ts';
import styles from './home.module.css';

export function Hero() {
  const { t } = useTranslation();
  const { isSignedIn, walletAddress } = useSession();
  return (
    <section className={styles.hero}>
      <div className={styles.heroGlow} aria-hidden="true" />
      <div className={styles.heroGrid} aria-hidden="true" />
      <span className={styles.heroBadge}>
        <span className={styles.heroDot} />
        {t('home.badge')}
      </span>
      <h1 className={styles.heroTitle}>{t('home.heroTitle')}</h1>
      <p className={styles.heroSubtitle}>{t('home.heroSubtitle')}</p>
      {isSignedIn ? (
        <div className={styles.heroActions}>
          <p className={styles.heroSigned}>
            <Icon name="check" size={16} />
            {t('home.signedInAs', { address: shortAddress(walletAddress ?? '') })}
          </p>
          <Link className="btn btn--block" to="/user">
            {t('home.ctaEnter')}
            <Icon name="chevron" size={18} />
          </Link>
        </div>
      ) : (
        <div className={styles.heroActions}>
          <button type="button" className="btn btn--block" onClick={() => requestSignIn()}>
            <Icon name="wallet" size={20} />
            {t('home.ctaConnect')}
          </button>
          <p className={styles.heroNote}>{t('home.ctaNote')}</p>
        </div>
      )}
    </section>
  );
}
