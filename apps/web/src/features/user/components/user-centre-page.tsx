import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { UserInfo } from '@nadi/api/user';
import { CopyButton } from '../../../components/copy-button.tsx';
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
import './user.css';

export default function UserCentrePage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  if (user.isPending) return <LoadingView />;
  if (user.isError) return <ErrorView title={t('user.loadFailed')} error={user.error} onRetry={() => void user.refetch()} />;
  return (
    <div className="user-page">
      <ProfileCard user={user.data} />
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
    <section className="profile card">
      <div className="profile__row">
        <span className="profile__avatar" style={avatarStyle(user.wallet_address)} aria-hidden="true" />
        <div className="profile__id">
          <span className="profile__label">{t('user.address')}</span>
          <span className="profile__address mono">{shortAddress(user.wallet_address)}</span>
        </div>
        <CopyButton text={user.wallet_address} label={t('user.copyAddress')} />
      </div>
      <div className="profile__meta">
        <span className="level-chip">{t('user.level', { level: user.level })}</span>
        {/* docs/product.md section 6: node owners are "high-level agents", shown with their highest tier. */}
        {user.node_level !== null ? (
          <span className="agent-chip" data-testid="user-node-level">
            <span className="agent-chip__level">{t('user.nodeLevel', { level: user.node_level })}</span>
            {t('user.highLevelAgent')}
          </span>
        ) : null}
        <span className="profile__joined">{t('user.joined', { date: formatDate(user.created_at, tag) })}</span>
      </div>
      <dl className="stats">
        <div className="stats__item">
          <dt>{t('user.directReferrals')}</dt>
          <dd className="mono">{user.zhi_num}</dd>
        </div>
        <div className="stats__item">
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
    <section className="invite card" aria-labelledby="invite-title">
      <h2 id="invite-title" className="invite__title">
        {t('user.inviteTitle')}
      </h2>
      <p className="invite__hint">{t('user.inviteHint')}</p>
      <div className="invite__field">
        <span className="invite__label">{t('user.inviteCode')}</span>
        <span className="invite__value invite__value--code mono">{user.invite_code}</span>
        <CopyButton text={user.invite_code} label={t('user.copyInviteCode')} />
      </div>
      <div className="invite__field">
        <span className="invite__label">{t('user.inviteLink')}</span>
        <span className="invite__value invite__value--link">{user.invite_link}</span>
        <CopyButton text={user.invite_link} label={t('user.copyInviteLink')} />
      </div>
      <div className="invite__qr">
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
    <section className="card settings">
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
      <button type="button" className="list-row list-row--danger" onClick={() => void confirmSignOut()}>
        <Icon name="logout" size={20} />
        <span className="list-row__label">{t('auth.signOut')}</span>
      </button>
    </section>
  );
}
