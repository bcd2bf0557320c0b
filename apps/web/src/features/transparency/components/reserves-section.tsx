import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/translator.ts';
import type { ReserveAddress, SnapshotDetail } from '@nadi/api/transparency';
import { AddressText } from '../../../components/address-text.tsx';
import { Icon } from '../../../components/icon.tsx';
import { shortAddress } from '../../../lib/format.ts';
import { formatMoney } from '../../../lib/money-format.ts';
import type { ReserveVerdict } from '../reserve-check.ts';
import { cx, variant } from '../../../lib/cx.ts';
import styles from './transparency.module.css';

/** The ownership signatures, checked in the browser once the list is on screen (viem loads then). */
function useReserveVerdicts(snapshot: SnapshotDetail) {
  return useQuery({
    queryKey: ['transparency', 'reserve-check', snapshot.id, snapshot.reserves.map((r) => r.signature).join()],
    queryFn: async () => {
      const { checkReserves } = await import('../reserve-check.ts');
      // The platform a message must name is the one this page came from.
      return checkReserves(snapshot.reserves, globalThis.location.host);
    },
    staleTime: Infinity,
  });
}

/** The platform's addresses whose on-chain balances are the reserves, each with its proof of ownership. */
export default function ReservesSection({ snapshot }: { snapshot: SnapshotDetail }) {
  const { t } = useTranslation();
  const verdicts = useReserveVerdicts(snapshot);
  return (
    <section className={cx(styles.section, 'card')} aria-labelledby="reserves-title" data-testid="transparency-reserves">
      <h2 id="reserves-title" className={styles.sectionTitle}>
        {t('transparency.reserves.title')}
      </h2>
      <p className={styles.sectionHint}>{t('transparency.reserves.hint', { block: snapshot.block_number })}</p>
      {snapshot.reserves.length === 0 ? (
        <p className={styles.sectionHint}>{t('transparency.reserves.none')}</p>
      ) : (
        <ul className={styles.reserveList}>
          {snapshot.reserves.map((reserve, i) => (
            <ReserveItem key={reserve.address} reserve={reserve} verdict={verdicts.data?.[i] ?? null} isChecking={verdicts.isPending} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ReserveItem({ reserve, verdict, isChecking }: { reserve: ReserveAddress; verdict: ReserveVerdict | null; isChecking: boolean }) {
  const { t } = useTranslation();
  const isOwnerSigned = reserve.signer.toLowerCase() !== reserve.address.toLowerCase();
  return (
    <li className={styles.reserve} data-testid="reserve-address">
      {/* The role, translated, names it; a cold address also has the name an admin gave it. */}
      <p className={styles.reserveHead}>
        <span className={styles.reserveLabel}>{t(`transparency.reserves.role.${reserve.role}`)}</span>
        {reserve.role === 'cold' ? <span className={styles.roleChip}>{reserve.label}</span> : null}
      </p>
      <AddressText address={reserve.address} className={styles.reserveAddress} />
      <p className={cx(styles.reserveBalances, 'mono')}>
        <span>{formatMoney(reserve.balances.NADI, 4)} NADI</span>
        <span>{formatMoney(reserve.balances.USDT, 4)} USDT</span>
      </p>
      <p
        className={cx(styles.reserveVerdict, verdict && variant(styles, `verdict--${verdict === 'verified' ? 'ok' : 'bad'}`))}
        data-testid="reserve-verdict"
        data-verdict={verdict ?? 'checking'}
      >
        {verdict === null ? (
          <span className="spinner spinner--small" aria-hidden="true" />
        ) : (
          <Icon name={verdict === 'verified' ? 'check' : 'alert'} size={16} />
        )}
        <span>
          {verdict === null
            ? t(isChecking ? 'transparency.reserves.checking' : 'transparency.reserves.checkFailed')
            : t(`transparency.reserves.verdict.${verdict}`)}
          {verdict === 'verified' && isOwnerSigned ? ` ${t('transparency.reserves.byOwner', { signer: shortAddress(reserve.signer) })}` : ''}
        </span>
      </p>
    </li>
  );
}
