// The notice module's public surface: its plugin and the job pushing scheduled notices.
export { noticeModule } from './routes.ts';
export { noticeJobIntervalMs, runNoticeRound, startNoticeJob, type NoticeJob } from './job.ts';
