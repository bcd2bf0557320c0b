import { lazy, Suspense } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Hero } from './hero.tsx';
import { NodeCountdown } from './node-countdown.tsx';
import { QuickEntries } from './quick-entries.tsx';
import styles from './home.module.css';

// Below the fold on a phone (hero, shortcuts and countdown fill the first screen), so their code
// leaves the home route's first download (build.test.ts budget) and loads right after it.
const FeatureSections = lazy(() => import('./feature-sections.tsx'));

/** The landing page at / (anyone) and /index (signed in); both are kept alive. */
export function HomePage() {
  const { t } = useTranslation();
  return (
    <div className={styles.home}>
      <Hero />
      <QuickEntries />
      <NodeCountdown />
      {/* The footnote comes with the sections: shown before them, it was pushed down the screen when
          they arrived (bench:web: a layout shift of 0.02). */}
      <Suspense fallback={null}>
        <FeatureSections />
        <p className={styles.homeFootnote}>{t('home.footnote')}</p>
      </Suspense>
    </div>
  );
}
