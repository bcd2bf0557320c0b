import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '../../../components/icon.tsx';
import { shortAddress } from '../../../lib/format.ts';
import { requestSignIn } from '../../../lib/sign-in-request.ts';
import { useSession } from '../../../lib/use-session.ts';

export function Hero() {
  const { t } = useTranslation();
  const { isSignedIn, walletAddress } = useSession();
  return (
    <section className="hero">
      <div className="hero__glow" aria-hidden="true" />
      <div className="hero__grid" aria-hidden="true" />
      <span className="hero__badge">
        <span className="hero__dot" />
        {t('home.badge')}
      </span>
      <h1 className="hero__title">{t('home.heroTitle')}</h1>
      <p className="hero__subtitle">{t('home.heroSubtitle')}</p>
      {isSignedIn ? (
        <div className="hero__actions">
          <p className="hero__signed">
            <Icon name="check" size={16} />
            {t('home.signedInAs', { address: shortAddress(walletAddress ?? '') })}
          </p>
          <Link className="btn btn--block" to="/user">
            {t('home.ctaEnter')}
            <Icon name="chevron" size={18} />
          </Link>
        </div>
      ) : (
        <div className="hero__actions">
          <button type="button" className="btn btn--block" onClick={() => requestSignIn()}>
            <Icon name="wallet" size={20} />
            {t('home.ctaConnect')}
          </button>
          <p className="hero__note">{t('home.ctaNote')}</p>
        </div>
      )}
    </section>
  );
}
