import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll';
import { EmptyView, ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { Icon } from '../../../components/icon.tsx';
import { formatDate } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useNotices } from '../api/get-notices.ts';
import './notice.css';

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
    <div className="notice-page">
      <ul className="notice-list">
        {items.map((notice) => (
          <li key={notice.id}>
            <Link className="notice-item card" to={`/notice/detail/${notice.id}`}>
              <span className="notice-item__dot" aria-hidden="true" />
              <span className="notice-item__body">
                <span className="notice-item__title">{notice.title}</span>
                <span className="notice-item__summary">{notice.summary}</span>
                <time className="notice-item__date" dateTime={notice.created_at}>
                  {formatDate(notice.created_at, tag)}
                </time>
              </span>
              <Icon name="chevron" size={18} className="notice-item__chevron" />
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
            <span className="notice-page__more">
              <span className="spinner spinner--small" />
              {t('common.loading')}
            </span>
          ) : (
            <span className="notice-page__more">{t('common.noMore')}</span>
          )
        }
      </InfiniteScroll>
    </div>
  );
}
