import { useState } from 'react';
import { useTranslation } from '../lib/translator.ts';
import { copyText } from '../lib/copy-text.ts';
import { notify } from '../lib/notify.ts';
import { Icon } from './icon.tsx';

interface Props {
  text: string;
  label: string;
  /** A button with its label written out, rather than an icon alone. */
  isLabelShown?: boolean;
  /** After the "copy manually" message, e.g. to select the text for the user. */
  onFailed?: () => void;
  testId?: string;
}

/** docs/product.md section 8: a failed copy tells the user to copy by hand. */
export function CopyButton({ text, label, isLabelShown = false, onFailed, testId }: Props) {
  const { t } = useTranslation();
  const [isCopied, setIsCopied] = useState(false);

  async function onCopy() {
    const isOk = await copyText(text);
    if (!isOk) {
      notify(t('common.copyFailed'), 'fail');
      onFailed?.();
      return;
    }
    notify(t('common.copied'), 'success');
    setIsCopied(true);
    setTimeout(() => setIsCopied(false), 1500);
  }

  const icon = <Icon name={isCopied ? 'check' : 'copy'} size={18} />;
  if (isLabelShown) {
    return (
      <button type="button" className="btn btn--ghost btn--small" onClick={() => void onCopy()} data-testid={testId}>
        {icon}
        {label}
      </button>
    );
  }
  return (
    <button type="button" className="icon-btn" aria-label={label} onClick={() => void onCopy()} data-testid={testId}>
      {icon}
    </button>
  );
}
