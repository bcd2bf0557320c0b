import { useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Icon } from '../../../components/icon.tsx';
import { setLang } from '../../../lib/i18n.ts';
import { langNativeNames, langs, langTags, type Lang } from '../../../lib/langs.ts';
import { notify } from '../../../lib/notify.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { cx } from '../../../lib/cx.ts';
import styles from './language.module.css';

export default function LanguagePage() {
  const { t } = useTranslation();
  const currentLang = useLang();
  const [pending, setPending] = useState<Lang | null>(null);

  async function choose(lang: Lang) {
    if (lang === currentLang || pending) return;
    setPending(lang);
    try {
      // The app refetches server-translated data when the language changes (app/app.tsx).
      await setLang(lang);
      notify(t('language.switched'), 'success');
    } catch {
      notify(t('language.switchFailed'), 'fail');
    } finally {
      setPending(null);
    }
  }

  return (
    <div className={styles.languagePage}>
      <p className={styles.languagePageSubtitle}>{t('language.subtitle')}</p>
      {/* A radio group holds its radios directly: list items inside it would be list items of no list. */}
      <div className={cx(styles.languageList, 'card')} role="radiogroup" aria-label={t('language.title')}>
        {langs.map((lang) => {
          const isCurrent = lang === currentLang;
          return (
            <button
              key={lang}
              type="button"
              role="radio"
              aria-checked={isCurrent}
              className={cx('list-row', 'language-row', isCurrent && styles.languageRowCurrent)}
              onClick={() => void choose(lang)}
              lang={langTags[lang]}
            >
              <span className={cx(styles.languageRowCode, 'mono')}>{lang}</span>
              <span className="list-row__label">{langNativeNames[lang]}</span>
              {pending === lang ? (
                <span className="spinner spinner--small" />
              ) : isCurrent ? (
                <Icon name="check" size={20} className={styles.languageRowCheck} />
              ) : null}
            </button>
          );
        })}
      </div>
    </div>
  );
}
