import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../lib/copy-text.ts';
import { notify } from '../lib/notify.ts';
import { Icon } from './icon.tsx';

/** Spec section 8: a failed copy tells the user to copy by hand. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const [isCopied, setIsCopied] = useState(false);

  async function onCopy() {
    const isOk = await copyText(text);
    if (!isOk) {
      notify(t('common.copyFailed'), 'fail');
      return;
    }
    notify(t('common.copied'), 'success');
    setIsCopied(true);
    setTimeout(() => setIsCopied(false), 1500);
  }

  return (
    <button type="button" className="icon-btn" aria-label={label} onClick={() => void onCopy()}>
      <Icon name={isCopied ? 'check' : 'copy'} size={18} />
    </button>
  );
}
