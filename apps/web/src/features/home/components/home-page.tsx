import { useTranslation } from 'react-i18next';
import { AdvantagesSection, EcosystemSection, PartnersSection } from './feature-sections.tsx';
import { Hero } from './hero.tsx';
import { NodeCountdown } from './node-countdown.tsx';
import './home.css';

/** The landing page at / (anyone) and /index (signed in); both are kept alive. */
export function HomePage() {
  const { t } = useTranslation();
  return (
    <div className="home">
      <Hero />
      <NodeCountdown />
      <EcosystemSection />
      <AdvantagesSection />
      <PartnersSection />
      <p className="home__footnote">{t('home.footnote')}</p>
    </div>
  );
}
