import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll';
import { EmptyView, ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { Icon } from '../../../components/icon.tsx';
import { formatDate } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useNotices } from '../api/get-notices.ts';
import { cx } from '../../../lib/cx.ts';
import styles from './notice.module.css';

export default function NoticeListPage() {
  const { t } = useTranslation();
  const notices = useNotices();
  const tag = langTags[useLang()];

  if (notices.isPending) return <LoadingView />;
  // Once a page is shown, a failed next page is retried in place (below) instead of hiding the list.
  if (!notices.data) return <ErrorView title={t('notice.loadFailed')} error={notices.error} onRetry={() => void notices.refetch()} />;
  const items = notices.data.pages.flatMap((page) => page.list);
  if (items.length === 0) return <EmptyView title={t('notice.empty')} hint={t('notice.emptyHint')} icon="notice" />;

  return (
    <div className={styles.noticePage}>
      <ul className={styles.noticeList} data-testid="notice-list">
        {items.map((notice) => (
          <li key={notice.id}>
            <Link className={cx(styles.noticeItem, 'card')} to={`/notice/detail/${notice.id}`}>
              <span className={styles.noticeItemDot} aria-hidden="true" />
              <span className={styles.noticeItemBody}>
                <span className={styles.noticeItemTitle}>{notice.title}</span>
                <span className={styles.noticeItemSummary}>{notice.summary}</span>
                <time className={styles.noticeItemDate} dateTime={notice.created_at}>
                  {formatDate(notice.created_at, tag)}
                </time>
              </span>
              <Icon name="chevron" size={18} className={styles.noticeItemChevron} />
            </Link>
          </li>
        ))}
      </ul>
      <InfiniteScroll
        hasMore={notices.hasNextPage}
        loadMore={async () => {
          // Thrown so InfiniteScroll switches to its retry state instead of asking again at once.
          await notices.fetchNextPage({ throwOnError: true });
        }}
      >
        {(hasMore, failed, retry) =>
          failed ? (
            <button type="button" className="btn btn--ghost btn--small" onClick={() => void retry()}>
              {t('common.retry')}
            </button>
          ) : hasMore ? (
            <span className={styles.noticePageMore}>
              <span className="spinner spinner--small" />
              {t('common.loading')}
            </span>
          ) : (
            <span className={styles.noticePageMore}>{t('common.noMore')}</span>
          )
        }
      </InfiniteScroll>
    </div>
  );
}
