import { useEffect, useRef } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { TeamMember, ZhiListData } from '@nadi/api/team';
import { Icon } from '../../../components/icon.tsx';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { formatDate } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useDirects } from '../api/get-directs.ts';
import { teamKeys } from '../api/keys.ts';
import { currentMember, drillDown, goUp, goUpTo, type TeamLocation } from '../team-location.ts';
import { Amount, TeamLevelBadge } from './team-parts.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './team.module.css';

interface Props {
  location: TeamLocation;
  /** The link of another place on the team screen (its URL keeps where the list is). */
  hrefOf: (location: TeamLocation) => string;
}

/**
 * The directs list: the caller's own, or, drilled down, the directs of a member of the caller's
 * team, with a breadcrumb back up. A member with directs of their own opens theirs.
 */
export function DirectsList({ location, hrefOf }: Props) {
  const { t } = useTranslation();
  const memberId = currentMember(location);
  const directs = useDirects(memberId);
  const owner = directs.data?.pages[0]?.owner ?? null;
  const listRef = useRef<HTMLDivElement>(null);
  const shownFor = useRef(memberId);
  const isLoaded = !directs.isPending;
  useEffect(() => {
    // After going down or up from far into a long list, once the new list is in (while it loads the
    // page is short and the browser moves the scroll), bring its top, the breadcrumb, into view.
    if (!isLoaded || shownFor.current === memberId) return;
    shownFor.current = memberId;
    const list = listRef.current;
    if (list && list.getBoundingClientRect().top < parseFloat(getComputedStyle(list).scrollMarginTop)) list.scrollIntoView({ block: 'start' });
  }, [memberId, isLoaded]);
  return (
    <div className={cx(moneyStyles.records, styles.teamDirects)} ref={listRef}>
      {memberId === null ? (
        <div className={styles.teamListHead}>
          <p className={styles.teamListHeadText}>{t('team.directs.mine')}</p>
          <Link to="/invite" className={styles.teamLink} data-testid="team-invite-link">
            <Icon name="gift" size={16} />
            {t('team.directs.invite')}
          </Link>
        </div>
      ) : (
        <Breadcrumb location={location} ownerAddress={owner?.address ?? null} ownerDepth={owner?.depth ?? null} hrefOf={hrefOf} />
      )}
      <InfiniteList
        query={directs}
        getKey={(member) => member.id}
        renderItem={(member) => <MemberCard member={member} href={hrefOf(drillDown(location, member.id))} />}
        errorTitle={t('team.directs.loadFailed')}
        empty={
          memberId === null
            ? { title: t('team.directs.empty'), hint: t('team.directs.emptyHint'), icon: 'users' }
            : { title: t('team.directs.emptyMember'), hint: t('team.directs.emptyMemberHint'), icon: 'users' }
        }
      />
    </div>
  );
}

/** The masked address a drilled-into member's list named them by, if that list was read in this visit. */
function useKnownAddress(): (memberId: number) => string | null {
  const queryClient = useQueryClient();
  return (memberId) => queryClient.getQueryData<InfiniteData<ZhiListData>>(teamKeys.directs(memberId))?.pages[0]?.owner.address ?? null;
}

function Breadcrumb({
  location,
  ownerAddress,
  ownerDepth,
  hrefOf,
}: {
  location: TeamLocation;
  ownerAddress: string | null;
  ownerDepth: number | null;
  hrefOf: (location: TeamLocation) => string;
}) {
  const { t } = useTranslation();
  const knownAddress = useKnownAddress();
  const last = location.trail.length - 1;
  // Depth below the caller of the trail's i-th step: the server's for the last, counted back from it for the others.
  const depthOf = (index: number) => (ownerDepth === null ? (location.isTrailCut ? null : index + 1) : ownerDepth - (last - index));
  const labelOf = (index: number, id: number) => {
    const address = index === last ? ownerAddress : knownAddress(id);
    if (address) return <span className="mono">{address}</span>;
    const depth = depthOf(index);
    return depth === null ? '…' : t('team.directs.depth', { depth });
  };
  return (
    <nav className={cx(styles.teamCrumbs, 'card')} aria-label={t('team.directs.breadcrumb')} data-testid="team-breadcrumb">
      <div className={styles.teamCrumbsRow}>
        <Link to={hrefOf(goUp(location))} className={styles.teamLink} data-testid="team-up">
          <Icon name="back" size={16} />
          {t('team.directs.up')}
        </Link>
        {ownerDepth !== null ? <span className={moneyStyles.chip}>{t('team.directs.depth', { depth: ownerDepth })}</span> : null}
      </div>
      <ol className={styles.teamCrumbsTrail}>
        <li>
          <Link to={hrefOf(goUpTo(location, 0))} className={styles.teamCrumbsStep}>
            {t('team.directs.mine')}
          </Link>
        </li>
        {location.isTrailCut ? <li className={styles.teamCrumbsGap}>…</li> : null}
        {location.trail.map((id, index) =>
          index === last ? (
            <li key={id} aria-current="page" className={styles.teamCrumbsCurrent}>
              {labelOf(index, id)}
            </li>
          ) : (
            <li key={id}>
              <Link to={hrefOf(goUpTo(location, index + 1))} className={styles.teamCrumbsStep}>
                {labelOf(index, id)}
              </Link>
            </li>
          ),
        )}
      </ol>
    </nav>
  );
}

/** A direct; one with directs of their own is a link to theirs. */
function MemberCard({ member, href }: { member: TeamMember; href: string }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const hasTeam = member.zhi_num > 0;
  const body = (
    <>
      <header className={styles.teamMemberHead}>
        <TeamLevelBadge level={member.level} />
        <span className={cx(styles.teamMemberAddress, 'mono')}>{member.address}</span>
        {hasTeam ? <Icon name="chevron" size={18} className={styles.teamMemberChevron} /> : null}
      </header>
      <p className={styles.teamMemberJoined}>{t('team.directs.joined', { date: formatDate(member.joined_at, tag) })}</p>
      <dl className={styles.teamMemberFacts}>
        <div>
          <dt>{t('team.figure.mePerformance')}</dt>
          <dd>
            <Amount value={member.me_performance} asset="USDT" digits={2} />
          </dd>
        </div>
        <div>
          <dt>{t('team.figure.teamPerformance')}</dt>
          <dd>
            <Amount value={member.team_performance} asset="USDT" digits={2} />
          </dd>
        </div>
        <div>
          <dt>{t('team.figure.directs')}</dt>
          <dd className="mono">{member.zhi_num}</dd>
        </div>
        <div>
          <dt>{t('team.figure.teamSize')}</dt>
          <dd className="mono">{member.team_num}</dd>
        </div>
      </dl>
    </>
  );
  return hasTeam ? (
    <Link to={href} className={cx(styles.teamMember, styles.teamMemberOpen, 'card')} data-testid="team-member">
      {body}
    </Link>
  ) : (
    <article className={cx(styles.teamMember, 'card')} data-testid="team-member">
      {body}
    </article>
  );
}
