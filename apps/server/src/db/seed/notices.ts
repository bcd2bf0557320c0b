import type { NoticeTranslations } from '@nadi/api/notice';

/** Demo notices shown on a fresh development database, in every language of the product. */
export const demoNotices: NoticeTranslations[] = [
  {
    TW: { title: '歡迎來到 NADI', content: 'NADI 連接閒置的算力與 AI 硬體，讓每一台設備都能參與去中心化運算網路。連接錢包並簽名即可登入，無需支付 Gas。' },
    EN: {
      title: 'Welcome to NADI',
      content:
        'NADI connects idle computing power and AI hardware so every device can take part in a decentralized compute network. Connect your wallet and sign a message to sign in; it costs no gas.',
    },
    JP: {
      title: 'NADI へようこそ',
      content:
        'NADI は遊休の計算資源と AI ハードウェアをつなぎ、あらゆるデバイスを分散型コンピューティングネットワークに参加させます。ウォレットを接続してメッセージに署名するだけでログインでき、ガス代はかかりません。',
    },
    CN: { title: '欢迎来到 NADI', content: 'NADI 连接闲置的算力与 AI 硬件，让每一台设备都能参与去中心化计算网络。连接钱包并签名即可登录，无需支付 Gas。' },
    KO: {
      title: 'NADI에 오신 것을 환영합니다',
      content:
        'NADI는 유휴 컴퓨팅 파워와 AI 하드웨어를 연결하여 모든 기기가 탈중앙화 컴퓨팅 네트워크에 참여할 수 있게 합니다. 지갑을 연결하고 메시지에 서명하면 로그인되며 가스비가 들지 않습니다.',
    },
    TH: {
      title: 'ยินดีต้อนรับสู่ NADI',
      content:
        'NADI เชื่อมต่อพลังประมวลผลที่ว่างอยู่และฮาร์ดแวร์ AI เพื่อให้ทุกอุปกรณ์มีส่วนร่วมในเครือข่ายประมวลผลแบบกระจายศูนย์ เชื่อมต่อกระเป๋าเงินและลงนามข้อความเพื่อเข้าสู่ระบบ โดยไม่เสียค่าแก๊ส',
    },
    PT: {
      title: 'Bem-vindo à NADI',
      content:
        'A NADI liga capacidade de computação ociosa e hardware de IA para que cada dispositivo participe numa rede de computação descentralizada. Ligue a sua carteira e assine uma mensagem para entrar; não custa gás.',
    },
    MS: {
      title: 'Selamat datang ke NADI',
      content:
        'NADI menghubungkan kuasa pengkomputeran terbiar dan perkakasan AI supaya setiap peranti boleh menyertai rangkaian pengkomputeran terdesentralisasi. Sambungkan dompet anda dan tandatangan mesej untuk log masuk; tiada caj gas.',
    },
    ID: {
      title: 'Selamat datang di NADI',
      content:
        'NADI menghubungkan daya komputasi yang menganggur dan perangkat keras AI agar setiap perangkat dapat ikut serta dalam jaringan komputasi terdesentralisasi. Hubungkan dompet Anda dan tanda tangani pesan untuk masuk; tanpa biaya gas.',
    },
    VN: {
      title: 'Chào mừng đến với NADI',
      content:
        'NADI kết nối sức mạnh tính toán nhàn rỗi và phần cứng AI để mọi thiết bị đều có thể tham gia mạng lưới điện toán phi tập trung. Kết nối ví và ký một tin nhắn để đăng nhập; không tốn phí gas.',
    },
  },
  {
    TW: { title: '節點認購倒數開始', content: '首期節點認購已開放，截止時間請見首頁倒數計時。節點持有者可獲得挖礦加成與手續費分紅。' },
    EN: {
      title: 'Node sale countdown has started',
      content: 'The first node sale is open; the home page shows the time left. Node holders receive a mining bonus and a share of fees.',
    },
    JP: {
      title: 'ノード販売のカウントダウン開始',
      content: '第1期ノード販売を開始しました。残り時間はホーム画面でご確認ください。ノード保有者はマイニングボーナスと手数料配当を受け取れます。',
    },
    CN: { title: '节点认购倒计时开始', content: '首期节点认购已开放，截止时间请见首页倒计时。节点持有者可获得挖矿加成与手续费分红。' },
    KO: {
      title: '노드 판매 카운트다운 시작',
      content: '1차 노드 판매가 시작되었습니다. 남은 시간은 홈 화면에서 확인하세요. 노드 보유자는 채굴 보너스와 수수료 배당을 받습니다.',
    },
    TH: {
      title: 'เริ่มนับถอยหลังการขายโหนด',
      content: 'การขายโหนดรอบแรกเปิดแล้ว ดูเวลาที่เหลือได้ที่หน้าแรก ผู้ถือโหนดจะได้รับโบนัสการขุดและส่วนแบ่งค่าธรรมเนียม',
    },
    PT: {
      title: 'Começou a contagem da venda de nós',
      content:
        'A primeira venda de nós está aberta; a página inicial mostra o tempo restante. Os detentores de nós recebem um bónus de mineração e uma parte das taxas.',
    },
    MS: {
      title: 'Kiraan detik jualan nod telah bermula',
      content: 'Jualan nod pertama telah dibuka; halaman utama menunjukkan baki masa. Pemegang nod menerima bonus perlombongan dan bahagian yuran.',
    },
    ID: {
      title: 'Hitung mundur penjualan node dimulai',
      content: 'Penjualan node pertama telah dibuka; halaman beranda menampilkan sisa waktu. Pemegang node menerima bonus penambangan dan bagian dari biaya.',
    },
    VN: {
      title: 'Bắt đầu đếm ngược mở bán node',
      content: 'Đợt mở bán node đầu tiên đã bắt đầu; trang chủ hiển thị thời gian còn lại. Người sở hữu node nhận thưởng khai thác và chia sẻ phí.',
    },
  },
  {
    TW: { title: '安全提醒', content: 'NADI 不會向您索取助記詞或私鑰。簽名登入只證明您擁有錢包，不會轉移任何資產。請只在官方網址操作。' },
    EN: {
      title: 'Security reminder',
      content:
        'NADI will never ask for your seed phrase or private key. Signing in only proves you own the wallet and moves no funds. Use the official address only.',
    },
    JP: {
      title: 'セキュリティのお知らせ',
      content:
        'NADI がシードフレーズや秘密鍵を求めることはありません。署名ログインはウォレットの所有を証明するだけで、資産は移動しません。公式アドレスのみをご利用ください。',
    },
    CN: { title: '安全提醒', content: 'NADI 不会向您索取助记词或私钥。签名登录只证明您拥有钱包，不会转移任何资产。请只在官方网址操作。' },
    KO: {
      title: '보안 안내',
      content: 'NADI는 시드 문구나 개인 키를 절대 요구하지 않습니다. 서명 로그인은 지갑 소유만 증명하며 자산을 이동하지 않습니다. 공식 주소만 이용하세요.',
    },
    TH: {
      title: 'ข้อควรระวังด้านความปลอดภัย',
      content:
        'NADI จะไม่ขอวลีกู้คืนหรือคีย์ส่วนตัวของคุณ การลงนามเข้าสู่ระบบเป็นเพียงการยืนยันว่าคุณเป็นเจ้าของกระเป๋าเงินและไม่มีการโอนเงิน โปรดใช้เฉพาะที่อยู่เว็บไซต์ทางการ',
    },
    PT: {
      title: 'Aviso de segurança',
      content:
        'A NADI nunca lhe pedirá a frase de recuperação nem a chave privada. Entrar com assinatura apenas prova que a carteira é sua e não move fundos. Use apenas o endereço oficial.',
    },
    MS: {
      title: 'Peringatan keselamatan',
      content:
        'NADI tidak akan meminta frasa benih atau kunci peribadi anda. Log masuk dengan tandatangan hanya membuktikan anda pemilik dompet dan tidak memindahkan dana. Gunakan alamat rasmi sahaja.',
    },
    ID: {
      title: 'Pengingat keamanan',
      content:
        'NADI tidak akan pernah meminta frasa pemulihan atau kunci pribadi Anda. Masuk dengan tanda tangan hanya membuktikan Anda pemilik dompet dan tidak memindahkan dana. Gunakan alamat resmi saja.',
    },
    VN: {
      title: 'Nhắc nhở bảo mật',
      content:
        'NADI sẽ không bao giờ yêu cầu cụm từ khôi phục hay khóa riêng của bạn. Ký để đăng nhập chỉ chứng minh bạn sở hữu ví và không chuyển tiền. Chỉ sử dụng địa chỉ chính thức.',
    },
  },
];
