import { langs, type Lang } from '@nadi/api/common';
import { errorTexts } from '@nadi/api/error-texts/index';
import type { AddressErrorKey } from '@nadi/api/store-address';
import type { ErrorReason } from '@nadi/api/errors';

/**
 * Server messages in every language of the product. The envelope's `msg` comes from here: an error
 * reason's text from the one error catalogue the web shows too (packages/api/src/error-texts), and
 * here only what is not a reason (success, and the field problems of amounts and addresses).
 */
export const amountErrors = ['EMPTY', 'FORMAT', 'NEGATIVE', 'TOO_MANY_DECIMALS', 'TOO_LARGE', 'ZERO'] as const;
export type MessageKey = ErrorReason | 'OK' | `amount.${(typeof amountErrors)[number]}` | `address.${AddressErrorKey}`;
type Catalogue = Record<MessageKey, string>;
type ServerTexts = Record<Exclude<MessageKey, ErrorReason>, string>;

const EN: ServerTexts = {
  OK: 'Success',
  'amount.EMPTY': 'Please enter an amount',
  'amount.FORMAT': 'Enter the amount as a plain number, such as 12.5',
  'amount.NEGATIVE': 'The amount cannot be below 0',
  'amount.TOO_MANY_DECIMALS': 'At most 18 decimal places',
  'amount.TOO_LARGE': 'The amount is too large',
  'amount.ZERO': 'The amount must be above 0',
  'address.NAME_REQUIRED': "Please enter the receiver's name",
  'address.PHONE_REQUIRED': 'Please enter a phone number',
  'address.PHONE_INVALID': 'Please enter a valid phone number for the chosen country',
  'address.AREA_REQUIRED': 'Please enter the area',
  'address.DETAIL_REQUIRED': 'Please enter the detailed address',
  'address.TOO_LONG': 'This is too long',
};

const TW: ServerTexts = {
  OK: '成功',
  'amount.EMPTY': '請輸入金額',
  'amount.FORMAT': '請以一般數字輸入金額，例如 12.5',
  'amount.NEGATIVE': '金額不能小於 0',
  'amount.TOO_MANY_DECIMALS': '最多 18 位小數',
  'amount.TOO_LARGE': '金額過大',
  'amount.ZERO': '金額必須大於 0',
  'address.NAME_REQUIRED': '請輸入收貨人姓名',
  'address.PHONE_REQUIRED': '請輸入手機號碼',
  'address.PHONE_INVALID': '請輸入所選國家/地區的有效電話號碼',
  'address.AREA_REQUIRED': '請輸入所在地區',
  'address.DETAIL_REQUIRED': '請輸入詳細地址',
  'address.TOO_LONG': '內容過長',
};

const CN: ServerTexts = {
  OK: '成功',
  'amount.EMPTY': '请输入金额',
  'amount.FORMAT': '请以普通数字输入金额，例如 12.5',
  'amount.NEGATIVE': '金额不能小于 0',
  'amount.TOO_MANY_DECIMALS': '最多 18 位小数',
  'amount.TOO_LARGE': '金额过大',
  'amount.ZERO': '金额必须大于 0',
  'address.NAME_REQUIRED': '请输入收货人姓名',
  'address.PHONE_REQUIRED': '请输入手机号码',
  'address.PHONE_INVALID': '请输入所选国家/地区的有效电话号码',
  'address.AREA_REQUIRED': '请输入所在地区',
  'address.DETAIL_REQUIRED': '请输入详细地址',
  'address.TOO_LONG': '内容过长',
};

const JP: ServerTexts = {
  OK: '成功しました',
  'amount.EMPTY': '金額を入力してください',
  'amount.FORMAT': '金額は 12.5 のような数字で入力してください',
  'amount.NEGATIVE': '金額は 0 未満にできません',
  'amount.TOO_MANY_DECIMALS': '小数点以下は最大 18 桁です',
  'amount.TOO_LARGE': '金額が大きすぎます',
  'amount.ZERO': '金額は 0 より大きくしてください',
  'address.NAME_REQUIRED': '受取人の氏名を入力してください',
  'address.PHONE_REQUIRED': '電話番号を入力してください',
  'address.PHONE_INVALID': '選択した国の有効な電話番号を入力してください',
  'address.AREA_REQUIRED': '地域を入力してください',
  'address.DETAIL_REQUIRED': '詳細住所を入力してください',
  'address.TOO_LONG': '長すぎます',
};

const KO: ServerTexts = {
  OK: '성공',
  'amount.EMPTY': '금액을 입력해 주세요',
  'amount.FORMAT': '금액은 12.5처럼 숫자로 입력해 주세요',
  'amount.NEGATIVE': '금액은 0보다 작을 수 없습니다',
  'amount.TOO_MANY_DECIMALS': '소수점 이하는 최대 18자리입니다',
  'amount.TOO_LARGE': '금액이 너무 큽니다',
  'amount.ZERO': '금액은 0보다 커야 합니다',
  'address.NAME_REQUIRED': '수령인 이름을 입력해 주세요',
  'address.PHONE_REQUIRED': '전화번호를 입력해 주세요',
  'address.PHONE_INVALID': '선택한 국가의 올바른 전화번호를 입력해 주세요',
  'address.AREA_REQUIRED': '지역을 입력해 주세요',
  'address.DETAIL_REQUIRED': '상세 주소를 입력해 주세요',
  'address.TOO_LONG': '너무 깁니다',
};

const TH: ServerTexts = {
  OK: 'สำเร็จ',
  'amount.EMPTY': 'โปรดกรอกจำนวน',
  'amount.FORMAT': 'โปรดกรอกจำนวนเป็นตัวเลข เช่น 12.5',
  'amount.NEGATIVE': 'จำนวนต้องไม่ต่ำกว่า 0',
  'amount.TOO_MANY_DECIMALS': 'ทศนิยมได้ไม่เกิน 18 ตำแหน่ง',
  'amount.TOO_LARGE': 'จำนวนมากเกินไป',
  'amount.ZERO': 'จำนวนต้องมากกว่า 0',
  'address.NAME_REQUIRED': 'กรุณากรอกชื่อผู้รับ',
  'address.PHONE_REQUIRED': 'กรุณากรอกหมายเลขโทรศัพท์',
  'address.PHONE_INVALID': 'กรุณากรอกหมายเลขโทรศัพท์ที่ถูกต้องของประเทศที่เลือก',
  'address.AREA_REQUIRED': 'กรุณากรอกพื้นที่',
  'address.DETAIL_REQUIRED': 'กรุณากรอกที่อยู่โดยละเอียด',
  'address.TOO_LONG': 'ยาวเกินไป',
};

const PT: ServerTexts = {
  OK: 'Sucesso',
  'amount.EMPTY': 'Introduza um valor',
  'amount.FORMAT': 'Introduza o valor como um número simples, por exemplo 12.5',
  'amount.NEGATIVE': 'O valor não pode ser inferior a 0',
  'amount.TOO_MANY_DECIMALS': 'No máximo 18 casas decimais',
  'amount.TOO_LARGE': 'O valor é demasiado grande',
  'amount.ZERO': 'O valor tem de ser superior a 0',
  'address.NAME_REQUIRED': 'Informe o nome do destinatário',
  'address.PHONE_REQUIRED': 'Informe um número de telefone',
  'address.PHONE_INVALID': 'Informe um telefone válido para o país escolhido',
  'address.AREA_REQUIRED': 'Informe a região',
  'address.DETAIL_REQUIRED': 'Informe o endereço completo',
  'address.TOO_LONG': 'Texto longo demais',
};

const MS: ServerTexts = {
  OK: 'Berjaya',
  'amount.EMPTY': 'Sila masukkan jumlah',
  'amount.FORMAT': 'Masukkan jumlah sebagai nombor biasa, contohnya 12.5',
  'amount.NEGATIVE': 'Jumlah tidak boleh kurang daripada 0',
  'amount.TOO_MANY_DECIMALS': 'Maksimum 18 tempat perpuluhan',
  'amount.TOO_LARGE': 'Jumlah terlalu besar',
  'amount.ZERO': 'Jumlah mesti melebihi 0',
  'address.NAME_REQUIRED': 'Sila masukkan nama penerima',
  'address.PHONE_REQUIRED': 'Sila masukkan nombor telefon',
  'address.PHONE_INVALID': 'Sila masukkan nombor telefon yang sah untuk negara yang dipilih',
  'address.AREA_REQUIRED': 'Sila masukkan kawasan',
  'address.DETAIL_REQUIRED': 'Sila masukkan alamat terperinci',
  'address.TOO_LONG': 'Terlalu panjang',
};

const ID: ServerTexts = {
  OK: 'Berhasil',
  'amount.EMPTY': 'Masukkan jumlah',
  'amount.FORMAT': 'Masukkan jumlah sebagai angka biasa, misalnya 12.5',
  'amount.NEGATIVE': 'Jumlah tidak boleh di bawah 0',
  'amount.TOO_MANY_DECIMALS': 'Maksimal 18 angka desimal',
  'amount.TOO_LARGE': 'Jumlah terlalu besar',
  'amount.ZERO': 'Jumlah harus di atas 0',
  'address.NAME_REQUIRED': 'Silakan masukkan nama penerima',
  'address.PHONE_REQUIRED': 'Silakan masukkan nomor telepon',
  'address.PHONE_INVALID': 'Silakan masukkan nomor telepon yang valid untuk negara yang dipilih',
  'address.AREA_REQUIRED': 'Silakan masukkan wilayah',
  'address.DETAIL_REQUIRED': 'Silakan masukkan alamat lengkap',
  'address.TOO_LONG': 'Terlalu panjang',
};

const VN: ServerTexts = {
  OK: 'Thành công',
  'amount.EMPTY': 'Vui lòng nhập số tiền',
  'amount.FORMAT': 'Nhập số tiền dưới dạng số thông thường, ví dụ 12.5',
  'amount.NEGATIVE': 'Số tiền không được nhỏ hơn 0',
  'amount.TOO_MANY_DECIMALS': 'Tối đa 18 chữ số thập phân',
  'amount.TOO_LARGE': 'Số tiền quá lớn',
  'amount.ZERO': 'Số tiền phải lớn hơn 0',
  'address.NAME_REQUIRED': 'Vui lòng nhập tên người nhận',
  'address.PHONE_REQUIRED': 'Vui lòng nhập số điện thoại',
  'address.PHONE_INVALID': 'Vui lòng nhập số điện thoại hợp lệ của quốc gia đã chọn',
  'address.AREA_REQUIRED': 'Vui lòng nhập khu vực',
  'address.DETAIL_REQUIRED': 'Vui lòng nhập địa chỉ chi tiết',
  'address.TOO_LONG': 'Quá dài',
};

const serverTexts: Record<Lang, ServerTexts> = { TW, EN, JP, CN, KO, TH, PT, MS, ID, VN };

export const catalogues = Object.fromEntries(langs.map((lang) => [lang, { ...errorTexts[lang], ...serverTexts[lang] } satisfies Catalogue])) as Record<
  Lang,
  Catalogue
>;

export function translate(lang: Lang, key: MessageKey): string {
  return catalogues[lang][key];
}

export function isMessageKey(value: string): value is MessageKey {
  return value in catalogues.EN;
}
