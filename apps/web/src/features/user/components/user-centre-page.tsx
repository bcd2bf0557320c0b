import { useTranslation } from '../../../lib/translator.ts';
import { Link, useNavigate } from 'react-router';
import type { UserInfo } from '@nadi/api/user';
import { CopyButton } from '../../../components/copy-button.tsx';
import { HoldingsCard } from './holdings-card.tsx';
import { Icon } from '../../../components/icon.tsx';
import { QrCode } from '../../../components/qr-code.tsx';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { confirmDialog } from '../../../lib/confirm-dialog.ts';
import { formatDate, shortAddress } from '../../../lib/format.ts';
import { langNativeNames, langTags } from '../../../lib/langs.ts';
import { notify } from '../../../lib/notify.ts';
import { signOut } from '../../../lib/sign-out.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useUserInfo } from '../../../lib/user-info.ts';
import { cx } from '../../../lib/cx.ts';
import styles from './user.module.css';

export default function UserCentrePage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  if (user.isPending) return <LoadingView />;
  if (user.isError) return <ErrorView title={t('user.loadFailed')} error={user.error} onRetry={() => void user.refetch()} />;
  return (
    <div className={styles.userPage}>
      <ProfileCard user={user.data} />
      <HoldingsCard user={user.data} />
      <InviteCard user={user.data} />
      <SettingsCard />
    </div>
  );
}

/** A colour pair derived from the address, so each account's avatar is recognisable. */
function avatarStyle(address: string) {
  const hue = parseInt(address.slice(2, 8), 16) % 360 || 160;
  return { background: `linear-gradient(135deg, hsl(${hue} 70% 55%), hsl(${(hue + 60) % 360} 70% 35%))` };
}

function ProfileCard({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  return (
    <section className={cx(styles.profile, 'card')}>
      <div className={styles.profileRow}>
        <span className={styles.profileAvatar} style={avatarStyle(user.wallet_address)} aria-hidden="true" />
        <div className={styles.profileId}>
          <span className={styles.profileLabel}>{t('user.address')}</span>
          <span className={cx(styles.profileAddress, 'mono')}>{shortAddress(user.wallet_address)}</span>
        </div>
        <CopyButton text={user.wallet_address} label={t('user.copyAddress')} />
      </div>
      <div className={styles.profileMeta}>
        <span className={styles.levelChip}>{t('user.level', { level: user.level })}</span>
        {/* docs/product.md section 6: node owners are "high-level agents", shown with their highest tier. */}
        {user.node_level !== null ? (
          <span className={styles.agentChip} data-testid="user-node-level">
            <span className={styles.agentChipLevel}>{t('user.nodeLevel', { level: user.node_level })}</span>
            {t('user.highLevelAgent')}
          </span>
        ) : null}
        <span className={styles.profileJoined}>{t('user.joined', { date: formatDate(user.created_at, tag) })}</span>
      </div>
      <dl className={styles.stats}>
        <div className={styles.statsItem}>
          <dt>{t('user.directReferrals')}</dt>
          <dd className="mono">{user.zhi_num}</dd>
        </div>
        <div className={styles.statsItem}>
          <dt>{t('user.teamSize')}</dt>
          <dd className="mono">{user.team_num}</dd>
        </div>
      </dl>
    </section>
  );
}

function InviteCard({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  return (
    <section className={cx(styles.invite, 'card')} aria-labelledby="invite-title">
      <h2 id="invite-title" className={styles.inviteTitle}>
        {t('user.inviteTitle')}
      </h2>
      <p className={styles.inviteHint}>{t('user.inviteHint')}</p>
      <div className={styles.inviteField}>
        <span className={styles.inviteLabel}>{t('user.inviteCode')}</span>
        <span className={cx(styles.inviteValue, styles.inviteValueCode, 'mono')}>{user.invite_code}</span>
        <CopyButton text={user.invite_code} label={t('user.copyInviteCode')} />
      </div>
      <div className={styles.inviteField}>
        <span className={styles.inviteLabel}>{t('user.inviteLink')}</span>
        <span className={cx(styles.inviteValue, styles.inviteValueLink)}>{user.invite_link}</span>
        <CopyButton text={user.invite_link} label={t('user.copyInviteLink')} />
      </div>
      <div className={styles.inviteQr}>
        <QrCode text={user.invite_link} alt={t('user.qrAlt')} failedText={t('user.qrFailed')} />
      </div>
      <Link className="btn btn--ghost btn--block" to="/invite" data-testid="user-invite-poster">
        <Icon name="qr" size={18} />
        {t('user.sharePoster')}
      </Link>
    </section>
  );
}

function SettingsCard() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();

  async function confirmSignOut() {
    const isConfirmed = await confirmDialog({ content: t('auth.signOutConfirm'), confirmText: t('auth.signOut'), cancelText: t('common.cancel') });
    if (!isConfirmed) return;
    await signOut();
    notify(t('auth.signedOut'), 'success');
    void navigate('/', { replace: true });
  }

  return (
    <section className={cx('card', styles.settings)}>
      <Link className="list-row" to="/sign" data-testid="user-daily-sign">
        <Icon name="calendar" size={20} />
        <span className="list-row__label">{t('user.dailySign')}</span>
        <span className="list-row__value">{t('user.dailySignHint')}</span>
        <Icon name="chevron" size={18} />
      </Link>
      <Link className="list-row" to="/language">
        <Icon name="language" size={20} />
        <span className="list-row__label">{t('user.language')}</span>
        <span className="list-row__value">{langNativeNames[lang]}</span>
        <Icon name="chevron" size={18} />
      </Link>
      <Link className="list-row" to="/notice">
        <Icon name="notice" size={20} />
        <span className="list-row__label">{t('user.notices')}</span>
        <Icon name="chevron" size={18} />
      </Link>
      <button type="button" className={cx('list-row', styles.listRowDanger)} onClick={() => void confirmSignOut()} data-testid="user-sign-out">
        <Icon name="logout" size={20} />
        <span className="list-row__label">{t('auth.signOut')}</span>
      </button>
    </section>
  );
}
