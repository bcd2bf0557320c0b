import { useTranslation } from '../../../lib/translator.ts';
import { useParams } from 'react-router';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useNotice } from '../api/get-notice.ts';
import { cx } from '../../../lib/cx.ts';
import styles from './notice.module.css';

export default function NoticeDetailPage() {
  const { t } = useTranslation();
  const params = useParams();
  const id = Number(params.id);
  const notice = useNotice(id);
  const tag = langTags[useLang()];

  if (!Number.isInteger(id) || id < 1) return <ErrorView title={t('notice.invalidId')} />;
  if (notice.isPending) return <LoadingView />;
  if (notice.isError) return <ErrorView title={t('notice.detailFailed')} error={notice.error} onRetry={() => void notice.refetch()} />;

  return (
    <article className={styles.noticeDetail}>
      <h1 className={styles.noticeDetailTitle}>{notice.data.title}</h1>
      <time className={styles.noticeDetailDate} dateTime={notice.data.created_at}>
        {formatDateTime(notice.data.created_at, tag)}
      </time>
      {/* Plain text with its line breaks kept: notices are never rendered as HTML. */}
      <div className={cx(styles.noticeDetailContent, 'card')}>{notice.data.content}</div>
    </article>
  );
}
