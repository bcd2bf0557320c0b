import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import type { PledgeProduct } from '@nadi/api/pledge';
import { ActionGrid } from '../../../components/action-grid.tsx';
import { Icon } from '../../../components/icon.tsx';
import { EmptyView, ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { useProducts } from '../api/get-products.ts';
import { groupProducts, joinState, type ProductGroup } from '../pledge-view.ts';
import { storeProduct } from '../product-storage.ts';
import { NodeOnlyNote, PoolBar, ProductFacts, RateBlock, StatusChip, useSavingsName } from './product-parts.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './pledge.module.css';

/**
 * /pledge (docs/product.md section 2, financial/list): the savings products grouped by kind, each with its
 * rates, pool and dates, and the ways to my positions, the release records and the interest.
 */
export default function PledgeListPage() {
  const { t } = useTranslation();
  const products = useProducts();
  return (
    <div className={cx(moneyStyles.moneyScreen, 'pledge-page')}>
      <ActionGrid
        label={t('pledge.list.actions')}
        actions={[
          { to: '/pledge/records', label: t('nav.pledgeRecords'), icon: 'list' },
          { to: '/pledge/releases', label: t('nav.pledgeReleases'), icon: 'clock' },
          { to: '/receive', label: t('pledge.list.claim'), icon: 'coins' },
          { to: '/grow', label: t('pledge.list.howItWorks'), icon: 'spark' },
        ]}
      />
      <ProductList query={products} />
    </div>
  );
}

function ProductList({ query }: { query: ReturnType<typeof useProducts> }) {
  const { t } = useTranslation();
  if (query.isPending) return <LoadingView />;
  // A failed background refresh keeps the products already shown.
  if (!query.data) return <ErrorView title={t('pledge.list.loadFailed')} error={query.error} onRetry={() => void query.refetch()} />;
  const groups = groupProducts(query.data);
  if (groups.length === 0) return <EmptyView title={t('pledge.list.empty')} hint={t('pledge.list.emptyHint')} icon="coins" />;
  return (
    <>
      {groups.map((group) => (
        <Group key={group.kind} group={group} />
      ))}
    </>
  );
}

function Group({ group }: { group: ProductGroup }) {
  const { t } = useTranslation();
  const titleId = `pledge-group-${group.kind}`;
  return (
    <section className={styles.pledgeGroup} aria-labelledby={titleId} data-testid={`pledge-group-${group.kind}`}>
      <header className="pledge-group__head">
        <h2 id={titleId} className={styles.pledgeGroupTitle}>
          {t(`pledge.kind.${group.kind}`)}
        </h2>
        <p className={styles.pledgeGroupHint}>{t(`pledge.kindHint.${group.kind}`)}</p>
      </header>
      <ul className={styles.pledgeGroupList}>
        {group.products.map((product) => (
          <li key={product.id}>
            <ProductCard product={product} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ProductCard({ product }: { product: PledgeProduct }) {
  const { t } = useTranslation();
  const name = useSavingsName();
  const state = joinState(product);
  return (
    <Link
      to={`/pledge/detail/${product.id}`}
      // The detail shows what the list read at once, then reads it again (docs/product.md section 3).
      onClick={() => storeProduct(product)}
      className={cx(styles.pledgeCard, 'card', !(state === 'open') && styles.pledgeCardOff)}
      data-testid="pledge-card"
    >
      <header className={styles.pledgeCardHead}>
        <h3 className={styles.pledgeCardName}>{name(product.kind, product.term_epochs)}</h3>
        <StatusChip status={product.status} />
      </header>
      <RateBlock product={product} />
      <PoolBar product={product} />
      <ProductFacts product={product} />
      {state === 'node-only' ? <NodeOnlyNote /> : null}
      <span className={styles.pledgeCardMore}>
        {t(state === 'open' ? 'pledge.list.join' : 'pledge.list.details')}
        <Icon name="chevron" size={16} />
      </span>
    </Link>
  );
}
