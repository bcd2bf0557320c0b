import { useEffect, useMemo, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/translator.ts';
import type { UserInfo } from '@nadi/api/user';
import { CopyButton } from '../../../components/copy-button.tsx';
import { Icon, type IconName } from '../../../components/icon.tsx';
import { QrCode } from '../../../components/qr-code.tsx';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { selectContents } from '../../../lib/copy-text.ts';
import { langTags } from '../../../lib/langs.ts';
import { notify } from '../../../lib/notify.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useUserInfo } from '../../../lib/user-info.ts';
import { useTeamInfo } from '../api/get-team-info.ts';
import { renderInvitePoster } from '../invite-poster-canvas.ts';
import { canSharePosterFile, inviteRewardLines, posterFileName, shareFailureKind } from '../invite-view.ts';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './invite.module.css';

/**
 * /invite (docs/product.md section 2; docs/team.md "Invite"): the user's invite code and link with copy buttons
 * (and "copy manually" when the browser refuses), the link's QR code, what inviting earns in the
 * numbers in force, and a share poster drawn in the browser.
 */
export default function InvitePage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  if (user.isPending) return <LoadingView />;
  if (user.isError) return <ErrorView title={t('invite.loadFailed')} error={user.error} onRetry={() => void user.refetch()} />;
  return (
    <div className={cx(moneyStyles.moneyScreen, 'invite-page')}>
      <InviteCodeCard user={user.data} />
      <HowInvitingWorks />
      <PosterCard code={user.data.invite_code} link={user.data.invite_link} />
    </div>
  );
}

function InviteCodeCard({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  return (
    <section className={cx(styles.inviteCode, 'card')} aria-labelledby="invite-code-title">
      <h2 id="invite-code-title" className={styles.inviteCodeTitle}>
        {t('invite.title')}
      </h2>
      <p className={styles.inviteCodeIntro}>{t('invite.intro')}</p>
      <CopyableValue
        className={styles.inviteCodeBox}
        valueClassName={cx(styles.inviteCodeValue, 'mono')}
        label={t('invite.code')}
        value={user.invite_code}
        copyLabel={t('invite.copyCode')}
        testId="invite-code"
      />
      <div className={styles.inviteCodeQr}>
        <QrCode text={user.invite_link} alt={t('invite.qrAlt')} failedText={t('invite.qrFailed')} testId="invite-qr" />
      </div>
      <CopyableValue
        className={styles.inviteLink}
        valueClassName={cx(styles.inviteLinkValue, 'mono')}
        label={t('invite.link')}
        value={user.invite_link}
        copyLabel={t('invite.copyLink')}
        testId="invite-link"
      />
    </section>
  );
}

const howIcons: Record<string, IconName> = {
  'invite.how.device': 'cpu',
  'invite.how.share': 'users',
  'invite.how.community': 'trophy',
  'invite.how.generic': 'gift',
};

/** What inviting earns, in the numbers in force (team/info); said without numbers when they cannot be read. */
function HowInvitingWorks() {
  const { t } = useTranslation();
  const team = useTeamInfo();
  const lines = inviteRewardLines(team.data);
  return (
    <section className={cx(styles.inviteHow, 'card')} aria-labelledby="invite-how-title">
      <h2 id="invite-how-title" className={styles.inviteHowTitle}>
        {t('invite.how.title')}
      </h2>
      {team.isPending ? (
        <div className={styles.inviteHowLoading} aria-busy="true">
          <div className="skeleton" />
          <div className="skeleton" />
        </div>
      ) : (
        <ul className={styles.inviteHowList} data-testid="invite-how">
          {lines.map((line) => (
            <li key={line.key}>
              <Icon name={howIcons[line.key] ?? 'gift'} size={18} />
              <span>{t(line.key, line.params ?? {})}</span>
            </li>
          ))}
        </ul>
      )}
      <p className={moneyStyles.formHint}>{t('invite.how.note')}</p>
    </section>
  );
}

/** The preview: an object URL made and revoked with the image element, so no URL outlives it. */
function BlobImage({ blob, alt }: { blob: Blob; alt: string }) {
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const url = URL.createObjectURL(blob);
    if (ref.current) ref.current.src = url;
    return () => URL.revokeObjectURL(url);
  }, [blob]);
  return <img ref={ref} className={styles.posterPreview} alt={alt} width={1080} height={1920} data-testid="invite-poster" />;
}

/** A download link's object URL is revoked after this long: the browser has started the download by then. */
const downloadUrlLifetimeMs = 60_000;

function PosterCard({ code, link }: { code: string; link: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  const texts = {
    brand: t('app.name'),
    tagline: t('invite.poster.tagline'),
    scanHint: t('invite.poster.scan'),
    codeLabel: t('invite.poster.codeLabel'),
    code,
    link,
  };
  // Drawn once per language, code and link; retrying a failed drawing is the user's choice.
  const poster = useQuery({
    queryKey: ['invite', 'poster', lang, code, link],
    queryFn: () => renderInvitePoster(texts, link, langTags[lang]),
    staleTime: Infinity,
    retry: false,
  });
  const file = useMemo(() => (poster.data ? new File([poster.data], posterFileName(code), { type: 'image/png' }) : null), [poster.data, code]);
  const canShare = file !== null && canSharePosterFile(navigator, file);

  async function share(posterFile: File) {
    try {
      await navigator.share({ files: [posterFile], title: t('invite.poster.shareTitle'), text: t('invite.poster.shareText', { link }) });
    } catch (error) {
      if (shareFailureKind(error) === 'failed') notify(t('invite.poster.shareFailed'), 'fail');
    }
  }

  function save(posterFile: File) {
    try {
      const url = URL.createObjectURL(posterFile);
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = posterFile.name;
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), downloadUrlLifetimeMs);
    } catch {
      notify(t('invite.poster.saveFailed'), 'fail');
    }
  }

  return (
    <section className={cx(styles.invitePoster, 'card')} aria-labelledby="invite-poster-title">
      <h2 id="invite-poster-title" className={styles.invitePosterTitle}>
        {t('invite.poster.title')}
      </h2>
      <div className={styles.invitePosterFrame}>
        {poster.isPending ? <div className={cx(styles.posterPreview, 'skeleton')} aria-busy="true" /> : null}
        {poster.isError ? <ErrorView title={t('invite.poster.drawFailed')} onRetry={() => void poster.refetch()} /> : null}
        {poster.data ? <BlobImage blob={poster.data} alt={t('invite.poster.alt')} /> : null}
      </div>
      {file ? (
        <div className={styles.invitePosterActions}>
          {canShare ? (
            <button type="button" className="btn btn--block" onClick={() => void share(file)} data-testid="invite-poster-share">
              <Icon name="external" size={18} />
              {t('invite.poster.share')}
            </button>
          ) : null}
          <button
            type="button"
            className={canShare ? 'btn btn--ghost btn--block' : 'btn btn--block'}
            onClick={() => save(file)}
            data-testid="invite-poster-save"
          >
            <Icon name="deposit" size={18} />
            {t('invite.poster.save')}
          </button>
          <p className={cx(moneyStyles.formHint, styles.invitePosterHint)}>{t('invite.poster.saveHint')}</p>
        </div>
      ) : null}
    </section>
  );
}

/** A value with its label and a copy button; when the browser refuses to copy, the value is selected to copy by hand. */
function CopyableValue(props: { className: string | undefined; valueClassName: string; label: string; value: string; copyLabel: string; testId: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  return (
    <div className={props.className}>
      <span className={styles.inviteCodeLabel}>{props.label}</span>
      <p ref={ref} className={props.valueClassName} data-testid={props.testId}>
        {props.value}
      </p>
      <CopyButton text={props.value} label={props.copyLabel} isLabelShown onFailed={() => selectContents(ref.current)} testId={`${props.testId}-copy`} />
    </div>
  );
}
