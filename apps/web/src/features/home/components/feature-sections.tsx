import { useTranslation } from '../../../lib/translator.ts';
import { Icon, type IconName } from '../../../components/icon.tsx';
import { cx } from '../../../lib/cx.ts';
import styles from './home.module.css';

interface Item {
  id: string;
  icon: IconName;
}

const ecosystem: Item[] = [
  { id: 'compute', icon: 'cpu' },
  { id: 'hardware', icon: 'bolt' },
  { id: 'token', icon: 'coins' },
  { id: 'community', icon: 'users' },
];

const advantages: Item[] = [
  { id: 'onchain', icon: 'shield' },
  { id: 'real', icon: 'network' },
  { id: 'custody', icon: 'lock' },
  { id: 'global', icon: 'globe' },
];

/** Brand names read the same in every language, so they are data rather than locale text. */
const partners = ['BNB Chain', 'MetaMask', 'WalletConnect', 'Trust Wallet', 'OKX Wallet', 'TokenPocket'];

function EcosystemSection() {
  const { t } = useTranslation();
  return (
    <section className={styles.homeSection} aria-labelledby="ecosystem-title">
      <h2 id="ecosystem-title" className="section-title">
        {t('home.ecosystemTitle')}
      </h2>
      <p className="section-subtitle">{t('home.ecosystemSubtitle')}</p>
      <div className={styles.ecoGrid}>
        {ecosystem.map((item) => (
          <article key={item.id} className={cx(styles.ecoCard, 'card')}>
            <span className={styles.ecoCardIcon}>
              <Icon name={item.icon} size={22} />
            </span>
            <h3 className={styles.ecoCardTitle}>{t(`home.eco.${item.id}.title`)}</h3>
            <p className={styles.ecoCardText}>{t(`home.eco.${item.id}.text`)}</p>
          </article>
        ))}
      </div>
    </section>
  );
}

function AdvantagesSection() {
  const { t } = useTranslation();
  return (
    <section className={styles.homeSection} aria-labelledby="advantages-title">
      <h2 id="advantages-title" className="section-title">
        {t('home.advantagesTitle')}
      </h2>
      <ol className={styles.advantages}>
        {advantages.map((item, index) => (
          <li key={item.id} className={styles.advantage}>
            <span className={cx(styles.advantageIndex, 'mono')}>{String(index + 1).padStart(2, '0')}</span>
            <div>
              <h3 className={styles.advantageTitle}>
                <Icon name={item.icon} size={18} />
                {t(`home.adv.${item.id}.title`)}
              </h3>
              <p className={styles.advantageText}>{t(`home.adv.${item.id}.text`)}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

function PartnersSection() {
  const { t } = useTranslation();
  return (
    <section className={styles.homeSection} aria-labelledby="partners-title">
      <h2 id="partners-title" className="section-title">
        {t('home.partnersTitle')}
      </h2>
      <p className="section-subtitle">{t('home.partnersSubtitle')}</p>
      <ul className={styles.partners}>
        {partners.map((name) => (
          <li key={name} className={styles.partner}>
            <span className={styles.partnerMark} aria-hidden="true">
              {name.slice(0, 1)}
            </span>
            {name}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The marketing sections under the fold, loaded after the first screen (home-page.tsx). */
export default function FeatureSections() {
  return (
    <>
      <EcosystemSection />
      <AdvantagesSection />
      <PartnersSection />
    </>
  );
}
