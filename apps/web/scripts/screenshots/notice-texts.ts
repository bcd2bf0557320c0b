// The notice the gallery publishes, in every language the app speaks, so the notice screens show
// each language's own text (and its line breaking) rather than the English fallback.
import type { NoticeTranslations } from '@nadi/api/notice';

export const noticeForShots: NoticeTranslations = {
  TW: { title: '週日系統維護通知', content: '週日 02:00 至 02:30（UTC）暫停充值與提現，其他功能照常使用。' },
  CN: { title: '周日系统维护通知', content: '周日 02:00 至 02:30（UTC）暂停充值与提现，其他功能照常使用。' },
  EN: { title: 'Maintenance on Sunday', content: 'Deposits and withdrawals pause on Sunday from 02:00 to 02:30 UTC; everything else works as usual.' },
  ID: {
    title: 'Pemeliharaan hari Minggu',
    content: 'Deposit dan penarikan dihentikan sementara pada hari Minggu pukul 02.00–02.30 UTC; fitur lain tetap berjalan.',
  },
  JP: {
    title: '日曜日のメンテナンスのお知らせ',
    content: '日曜日 02:00〜02:30（UTC）は入金と出金を一時停止します。その他の機能は通常どおりご利用いただけます。',
  },
  KO: { title: '일요일 시스템 점검 안내', content: '일요일 02:00~02:30(UTC)에는 입금과 출금이 일시 중단됩니다. 그 밖의 기능은 평소처럼 이용할 수 있습니다.' },
  MS: {
    title: 'Penyelenggaraan pada hari Ahad',
    content: 'Deposit dan pengeluaran dihentikan seketika pada hari Ahad dari 02:00 hingga 02:30 UTC; ciri lain berfungsi seperti biasa.',
  },
  PT: { title: 'Manutenção no domingo', content: 'Depósitos e saques ficam suspensos no domingo das 02:00 às 02:30 UTC; todo o resto funciona normalmente.' },
  TH: { title: 'แจ้งปิดปรับปรุงระบบวันอาทิตย์', content: 'งดฝากและถอนชั่วคราวในวันอาทิตย์ เวลา 02:00–02:30 น. (UTC) ฟังก์ชันอื่นใช้งานได้ตามปกติ' },
  VN: {
    title: 'Bảo trì hệ thống vào Chủ nhật',
    content: 'Tạm dừng nạp và rút tiền vào Chủ nhật từ 02:00 đến 02:30 UTC; các chức năng khác vẫn hoạt động bình thường.',
  },
};
