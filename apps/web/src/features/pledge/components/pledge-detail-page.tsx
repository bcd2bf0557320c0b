import { useTranslation } from '../../../lib/translator.ts';
import { Link, useParams } from 'react-router';
import type { PledgeProduct } from '@nadi/api/pledge';
import { Icon } from '../../../components/icon.tsx';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { productIdMax, parseRouteId } from '../../../lib/route-id.ts';
import { useProduct } from '../api/get-product.ts';
import { joinState, type JoinState } from '../pledge-view.ts';
import { JoinForm } from './join-form.tsx';
import { NodeOnlyNote, PoolBar, ProductFacts, RateBlock, StatusChip, useSavingsName } from './product-parts.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './pledge.module.css';

/**
 * /pledge/detail/{id} (docs/product.md section 2): one product with its rules, a calculator and the join form.
 * The product last read is kept in session storage (docs/product.md section 3), so a refresh shows it at once;
 * the form waits for the fresh answer before it sends anything.
 */
export default function PledgeDetailPage() {
  const { t } = useTranslation();
  const id = parseRouteId(useParams().id, productIdMax);
  if (id === null) return <ErrorView title={t('pledge.detail.missing')} action={<BackToList />} />;
  return <Detail id={id} />;
}

function BackToList() {
  const { t } = useTranslation();
  return (
    <Link to="/pledge" className="btn btn--ghost btn--small">
      {t('pledge.detail.backToList')}
    </Link>
  );
}

function Detail({ id }: { id: number }) {
  const { t } = useTranslation();
  const query = useProduct(id);
  if (query.isPending) return <LoadingView />;
  if (!query.data) return <ErrorView title={t('pledge.detail.loadFailed')} error={query.error} onRetry={() => void query.refetch()} action={<BackToList />} />;
  return <DetailView product={query.data} isFresh={!query.isPlaceholderData} />;
}

function DetailView({ product, isFresh }: { product: PledgeProduct; isFresh: boolean }) {
  const { t } = useTranslation();
  const name = useSavingsName();
  const state = joinState(product);
  return (
    <div className={cx(moneyStyles.moneyScreen, styles.pledgeDetail)} data-testid="pledge-detail">
      <section className={cx(styles.pledgeCard, 'card')} aria-labelledby="pledge-detail-name">
        <header className={styles.pledgeCardHead}>
          <h2 id="pledge-detail-name" className={styles.pledgeCardName}>
            {name(product.kind, product.term_epochs)}
          </h2>
          <StatusChip status={product.status} />
        </header>
        <p className={styles.pledgeCardHint}>{t(`pledge.kindHint.${product.kind}`)}</p>
        <RateBlock product={product} />
        {product.is_rate_estimate ? <p className={moneyStyles.formHint}>{t('pledge.rate.estimateHint')}</p> : null}
        <PoolBar product={product} />
        <ProductFacts product={product} />
      </section>
      {state === 'open' ? null : <ClosedNote state={state} />}
      <JoinForm product={product} isFresh={isFresh} isOpen={state === 'open'} />
      <p className={moneyStyles.formHint}>{t(`pledge.rules.${product.kind}`)}</p>
      <Link to="/grow" className={moneyStyles.textLink}>
        {t('pledge.detail.howItWorks')}
        <Icon name="chevron" size={16} />
      </Link>
    </div>
  );
}

/** Why the product cannot be joined now; node savings point to the nodes. */
function ClosedNote({ state }: { state: Exclude<JoinState, 'open'> }) {
  const { t } = useTranslation();
  if (state === 'node-only') {
    return (
      <div className={cx(styles.pledgeClosed, 'card')}>
        <NodeOnlyNote />
        <Link to="/node" className="btn btn--ghost btn--small">
          {t('pledge.detail.toNodes')}
        </Link>
      </div>
    );
  }
  return (
    <p className={cx(styles.pledgeClosed, styles.pledgeClosedPlain, 'card')} data-testid="pledge-closed">
      {t(`pledge.closed.${state}`)}
    </p>
  );
}
