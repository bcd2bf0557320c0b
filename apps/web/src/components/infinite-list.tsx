import type { ReactNode } from 'react';
import { useTranslation } from '../lib/translator.ts';
import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll';
import { EmptyView, ErrorView, LoadingView } from './state-view.tsx';
import type { IconName } from './icon.tsx';
import styles from './infinite-list.module.css';

/** The parts of a TanStack infinite query over paged lists ({list, total, page, page_size}) the list reads. */
export interface InfiniteListQuery<T> {
  isPending: boolean;
  error: unknown;
  data: { pages: { list: T[] }[] } | undefined;
  hasNextPage: boolean;
  refetch: () => unknown;
  fetchNextPage: (options: { throwOnError: boolean }) => Promise<unknown>;
}

interface Props<T> {
  query: InfiniteListQuery<T>;
  getKey: (item: T) => string | number;
  renderItem: (item: T) => ReactNode;
  errorTitle: string;
  empty: { title: string; hint?: string; icon?: IconName };
}

/**
 * A paged list that loads the next page as the user nears its end, with the loading, error and
 * empty states of every screen. Once a page is shown, a failed next page is retried in place.
 */
export function InfiniteList<T>({ query, getKey, renderItem, errorTitle, empty }: Props<T>) {
  const { t } = useTranslation();
  if (query.isPending) return <LoadingView />;
  if (!query.data) return <ErrorView title={errorTitle} error={query.error} onRetry={() => void query.refetch()} />;
  const items = query.data.pages.flatMap((page) => page.list);
  if (items.length === 0) return <EmptyView title={empty.title} hint={empty.hint} icon={empty.icon} />;

  return (
    <>
      <ul className={styles.infiniteList}>
        {items.map((item) => (
          <li key={getKey(item)}>{renderItem(item)}</li>
        ))}
      </ul>
      <InfiniteScroll
        className={styles.infiniteListMore}
        hasMore={query.hasNextPage}
        loadMore={async () => {
          // Thrown so InfiniteScroll switches to its retry state instead of asking again at once.
          await query.fetchNextPage({ throwOnError: true });
        }}
      >
        {(hasMore, failed, retry) =>
          failed ? (
            <button type="button" className="btn btn--ghost btn--small" onClick={() => void retry()}>
              {t('common.retry')}
            </button>
          ) : (
            <span className={styles.infiniteListStatus}>
              {hasMore ? <span className="spinner spinner--small" /> : null}
              {hasMore ? t('common.loading') : t('common.noMore')}
            </span>
          )
        }
      </InfiniteScroll>
    </>
  );
}
