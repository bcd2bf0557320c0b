import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import Input from 'antd-mobile/es/components/input';
import { normaliseInviteCode, readInviteCode } from '../../../lib/invite-code.ts';
import { inviteCodeError } from '../invite-validation.ts';
import { cx } from '../../../lib/cx.ts';
import styles from './sign-in-sheet.module.css';

export function InviteStep({ isRefused, refusedCode, onSubmit }: { isRefused: boolean; refusedCode?: string; onSubmit: (code: string) => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(() => refusedCode ?? readInviteCode() ?? '');
  const [errorKey, setErrorKey] = useState<string | null>(isRefused ? 'errors.INVITE_INVALID' : null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = inviteCodeError(value);
    setErrorKey(problem);
    const code = normaliseInviteCode(value);
    if (!problem && code) onSubmit(code);
  }

  return (
    <form className={styles.inviteStep} onSubmit={submit} noValidate>
      <p className={styles.signSheetLead}>{t('auth.inviteHint')}</p>
      <label className={styles.inviteStepLabel} htmlFor="invite-code">
        {t('auth.inviteLabel')}
      </label>
      <div className={cx(styles.inviteStepField, errorKey && styles.inviteStepFieldError)}>
        <Input
          id="invite-code"
          name="invite-code"
          value={value}
          onChange={(next) => {
            setValue(next.toUpperCase());
            if (errorKey) setErrorKey(null);
          }}
          placeholder={t('auth.invitePlaceholder')}
          autoComplete="off"
          autoCapitalize="characters"
          maxLength={12}
          enterKeyHint="go"
          clearable
          aria-invalid={errorKey ? true : undefined}
          aria-describedby={errorKey ? 'invite-code-error' : undefined}
        />
      </div>
      {errorKey ? (
        <p id="invite-code-error" className={styles.inviteStepError} role="alert">
          {t(errorKey)}
        </p>
      ) : null}
      <button type="submit" className="btn btn--block">
        {t('auth.inviteSubmit')}
      </button>
    </form>
  );
}
