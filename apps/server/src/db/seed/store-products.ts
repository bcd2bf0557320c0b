// The store's development catalogue: one product per seeded device model, with a summary in every
// language of the product and specification lines (values are literal: numbers and SI units).
import { eq, inArray } from 'drizzle-orm';
import { units } from '@nadi/money/money';
import type { Lang } from '@nadi/api/common';
import type { StoreImageKey, StoreSpecKey } from '@nadi/api/store';
import type { Tx } from '../client.ts';
import { deviceModels, storeProducts } from '../schema.ts';

interface SeedProduct {
  modelCode: string;
  name: string;
  image: StoreImageKey;
  summary: Record<Lang, string>;
  specs: { key: StoreSpecKey; value: string }[];
  priceUsdt: bigint;
  stock: number;
  perOrderMax: number;
  sort: number;
}

export const storeSeedProducts: SeedProduct[] = [
  {
    modelCode: 'NADI-BOX-1',
    name: 'NADI Edge Box',
    image: 'nadi-box-1',
    summary: {
      TW: '安靜、掌心大小的家用節點：插上電源，輸入盒內的啟用碼，即可開始為您的帳戶累積挖礦算力。',
      EN: 'A quiet, palm-sized node for home: plug it in, enter the activation code from its box, and it starts earning mining power for your account.',
      JP: '静かで手のひらサイズの家庭用ノード。電源を入れ、箱に同梱のアクティベーションコードを入力するだけで、アカウントのマイニングパワーが貯まり始めます。',
      CN: '安静、掌心大小的家用节点：插上电源，输入盒内的激活码，即可开始为您的账户累积挖矿算力。',
      KO: '조용하고 손바닥만 한 가정용 노드입니다. 전원을 연결하고 상자에 든 활성화 코드를 입력하면 계정의 채굴 파워가 쌓이기 시작합니다.',
      TH: 'โหนดสำหรับบ้านขนาดเท่าฝ่ามือที่ทำงานเงียบ เพียงเสียบปลั๊กและกรอกรหัสเปิดใช้งานจากในกล่อง ก็เริ่มสะสมพลังการขุดให้บัญชีของคุณได้ทันที',
      PT: 'Um nó doméstico silencioso, do tamanho da palma da mão: ligue-o, introduza o código de ativação da caixa e começa a acumular poder de mineração para a sua conta.',
      MS: 'Nod rumah yang senyap sebesar tapak tangan: pasangkan, masukkan kod pengaktifan dari kotaknya, dan ia mula mengumpul kuasa perlombongan untuk akaun anda.',
      ID: 'Node rumahan yang senyap seukuran telapak tangan: colokkan, masukkan kode aktivasi dari kotaknya, dan mulai kumpulkan daya penambangan untuk akun Anda.',
      VN: 'Nút gia đình nhỏ gọn bằng lòng bàn tay, vận hành êm: cắm điện, nhập mã kích hoạt trong hộp và bắt đầu tích lũy sức mạnh đào cho tài khoản của bạn.',
    },
    specs: [
      { key: 'chip', value: 'ARM Cortex-A55 ×4' },
      { key: 'ai_compute', value: '1 TOPS' },
      { key: 'memory', value: '4 GB' },
      { key: 'storage', value: '64 GB eMMC' },
      { key: 'network', value: '1 GbE · Wi-Fi 6' },
      { key: 'power_draw', value: '10 W' },
      { key: 'size', value: '120 × 120 × 35 mm' },
      { key: 'weight', value: '450 g' },
    ],
    priceUsdt: units('500'),
    stock: 200,
    perOrderMax: 10,
    sort: 10,
  },
  {
    modelCode: 'NADI-BOX-PRO',
    name: 'NADI Box Pro',
    image: 'nadi-box-pro',
    summary: {
      TW: '為進階礦工打造的更強算力：八核心主機搭載神經網路引擎，全天候執行 AI 運算任務。',
      EN: 'More power for serious miners: an eight-core box with a neural engine that runs AI workloads around the clock.',
      JP: '本格派マイナーのためのさらなるパワー。ニューラルエンジンを搭載した8コアの本体が、AI ワークロードを24時間処理します。',
      CN: '为进阶矿工打造的更强算力：八核主机搭载神经网络引擎，全天候运行 AI 计算任务。',
      KO: '본격적인 채굴자를 위한 더 큰 파워. 뉴럴 엔진을 갖춘 8코어 장치가 AI 작업을 24시간 처리합니다.',
      TH: 'พลังที่มากขึ้นสำหรับนักขุดตัวจริง เครื่องแปดคอร์พร้อมเอนจินประมวลผลโครงข่ายประสาทเทียม รันงาน AI ได้ตลอด 24 ชั่วโมง',
      PT: 'Mais poder para mineradores exigentes: uma caixa de oito núcleos com motor neural que executa cargas de IA 24 horas por dia.',
      MS: 'Lebih kuasa untuk pelombong serius: peranti lapan teras dengan enjin neural yang menjalankan beban kerja AI sepanjang masa.',
      ID: 'Daya lebih besar untuk penambang serius: perangkat delapan inti dengan mesin neural yang menjalankan beban kerja AI sepanjang waktu.',
      VN: 'Sức mạnh lớn hơn cho thợ đào chuyên nghiệp: thiết bị tám nhân với bộ xử lý thần kinh chạy các tác vụ AI suốt ngày đêm.',
    },
    specs: [
      { key: 'chip', value: 'ARM Cortex-A76 ×8' },
      { key: 'ai_compute', value: '6 TOPS' },
      { key: 'memory', value: '16 GB' },
      { key: 'storage', value: '256 GB NVMe' },
      { key: 'network', value: '2.5 GbE · Wi-Fi 6E' },
      { key: 'power_draw', value: '25 W' },
      { key: 'size', value: '160 × 160 × 45 mm' },
      { key: 'weight', value: '900 g' },
    ],
    priceUsdt: units('1500'),
    stock: 50,
    perOrderMax: 5,
    sort: 20,
  },
  {
    modelCode: 'NADI-EDGE-AI',
    name: 'NADI Edge AI',
    image: 'nadi-edge-ai',
    summary: {
      TW: '我們的旗艦邊緣 AI 伺服器：為運算網路提供 100 TOPS 推論效能，單機算力最高。',
      EN: 'Our flagship edge AI server: 100 TOPS of inference for the compute network, with the highest power per unit.',
      JP: 'フラッグシップのエッジ AI サーバー。コンピューティングネットワークに 100 TOPS の推論性能を提供し、1台あたりのパワーは最大です。',
      CN: '我们的旗舰边缘 AI 服务器：为计算网络提供 100 TOPS 推理性能，单机算力最高。',
      KO: '당사의 플래그십 엣지 AI 서버. 컴퓨팅 네트워크에 100 TOPS의 추론 성능을 제공하며 대당 파워가 가장 높습니다.',
      TH: 'เซิร์ฟเวอร์ Edge AI รุ่นเรือธงของเรา ให้พลังอนุมาน 100 TOPS แก่เครือข่ายประมวลผล พร้อมพลังต่อเครื่องสูงที่สุด',
      PT: 'O nosso servidor de IA de ponta topo de gama: 100 TOPS de inferência para a rede de computação, com o maior poder por unidade.',
      MS: 'Pelayan AI tepi perdana kami: 100 TOPS inferens untuk rangkaian pengkomputeran, dengan kuasa tertinggi bagi setiap unit.',
      ID: 'Server AI edge unggulan kami: inferensi 100 TOPS untuk jaringan komputasi, dengan daya tertinggi per unit.',
      VN: 'Máy chủ AI biên hàng đầu của chúng tôi: 100 TOPS suy luận cho mạng điện toán, với sức mạnh cao nhất trên mỗi thiết bị.',
    },
    specs: [
      { key: 'chip', value: 'ARM Cortex-A78AE ×12 + GPU' },
      { key: 'ai_compute', value: '100 TOPS' },
      { key: 'memory', value: '32 GB' },
      { key: 'storage', value: '1 TB NVMe' },
      { key: 'network', value: '10 GbE · Wi-Fi 6E' },
      { key: 'power_draw', value: '60 W' },
      { key: 'size', value: '200 × 180 × 70 mm' },
      { key: 'weight', value: '1.8 kg' },
    ],
    priceUsdt: units('4000'),
    stock: 20,
    perOrderMax: 2,
    sort: 30,
  },
];

/**
 * Adds the catalogue's products whose model exists and has no product yet (run once, by its
 * seed_runs row: an operator's later edits, stock and deletions stay). Answers rows added.
 */
export async function seedStoreProducts(tx: Tx, now: Date): Promise<number> {
  const codes = storeSeedProducts.map((p) => p.modelCode);
  const models = await tx.select({ id: deviceModels.id, code: deviceModels.code }).from(deviceModels).where(inArray(deviceModels.code, codes));
  let added = 0;
  for (const { modelCode, ...product } of storeSeedProducts) {
    const modelId = models.find((m) => m.code === modelCode)?.id;
    if (modelId === undefined) continue;
    const existing = await tx.select({ id: storeProducts.id }).from(storeProducts).where(eq(storeProducts.modelId, modelId)).limit(1);
    if (existing.length > 0) continue;
    await tx.insert(storeProducts).values({ ...product, modelId, isOnSale: true, createdAt: now, updatedAt: now });
    added += 1;
  }
  return added;
}
