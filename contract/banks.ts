/**
 * Taiwan financial institutions a member's bank card can be at, by their 3-digit code
 * (金融機構代號, the code a Taiwan interbank transfer names the receiving bank by).
 *
 * Source: 財金資訊股份有限公司 (Financial Information Service Co., FISC), 金融機構代號一覽表
 * ("financial institution codes"). Only the main banks are listed here; a well-formed code not in
 * the list is still accepted, with the bank name typed by the member (contract/identity.ts
 * addBankCardReq). The branch is the 4-digit 分行代號 that follows the bank code in FISC's 7-digit
 * branch code (e.g. 004 + 0037 = 0040037, Bank of Taiwan Guanqian branch).
 *
 * `tw` is the institution's registered name as FISC lists it (Traditional Chinese), `en` its usual
 * English name.
 */

export interface TaiwanBank {
  /** 3-digit FISC code, e.g. "004". */
  code: string;
  tw: string;
  en: string;
}

/** A bank code: exactly three ASCII digits. */
export const BANK_CODE_RE = /^\d{3}$/;
/** A branch code (分行代號): exactly four ASCII digits. */
export const BRANCH_CODE_RE = /^\d{4}$/;
/** The spec's "UPI (also labelled IFSC)" of an account outside Taiwan: 1–32 letters, digits, '@', '.', '-'. */
export const UPI_RE = /^[A-Za-z0-9@.-]{1,32}$/;

/** The main Taiwan banks by FISC code, in code order. */
export const TAIWAN_BANKS: readonly TaiwanBank[] = [
  { code: '004', tw: '臺灣銀行', en: 'Bank of Taiwan' },
  { code: '005', tw: '臺灣土地銀行', en: 'Land Bank of Taiwan' },
  { code: '006', tw: '合作金庫商業銀行', en: 'Taiwan Cooperative Bank' },
  { code: '007', tw: '第一商業銀行', en: 'First Commercial Bank' },
  { code: '008', tw: '華南商業銀行', en: 'Hua Nan Commercial Bank' },
  { code: '009', tw: '彰化商業銀行', en: 'Chang Hwa Commercial Bank' },
  { code: '011', tw: '上海商業儲蓄銀行', en: 'Shanghai Commercial & Savings Bank' },
  { code: '012', tw: '台北富邦商業銀行', en: 'Taipei Fubon Commercial Bank' },
  { code: '013', tw: '國泰世華商業銀行', en: 'Cathay United Bank' },
  { code: '016', tw: '高雄銀行', en: 'Bank of Kaohsiung' },
  { code: '017', tw: '兆豐國際商業銀行', en: 'Mega International Commercial Bank' },
  { code: '048', tw: '王道商業銀行', en: 'O-Bank' },
  { code: '050', tw: '臺灣中小企業銀行', en: 'Taiwan Business Bank' },
  { code: '052', tw: '渣打國際商業銀行', en: 'Standard Chartered Bank (Taiwan)' },
  { code: '053', tw: '台中商業銀行', en: 'Taichung Commercial Bank' },
  { code: '054', tw: '京城商業銀行', en: "King's Town Bank" },
  { code: '081', tw: '滙豐(台灣)商業銀行', en: 'HSBC Bank (Taiwan)' },
  { code: '101', tw: '瑞興商業銀行', en: 'Taipei Star Bank' },
  { code: '102', tw: '華泰商業銀行', en: 'Hwatai Bank' },
  { code: '103', tw: '臺灣新光商業銀行', en: 'Taiwan Shin Kong Commercial Bank' },
  { code: '108', tw: '陽信商業銀行', en: 'Sunny Bank' },
  { code: '118', tw: '板信商業銀行', en: 'Bank of Panhsin' },
  { code: '147', tw: '三信商業銀行', en: 'Cota Commercial Bank' },
  { code: '700', tw: '中華郵政', en: 'Chunghwa Post' },
  { code: '803', tw: '聯邦商業銀行', en: 'Union Bank of Taiwan' },
  { code: '805', tw: '遠東國際商業銀行', en: 'Far Eastern International Bank' },
  { code: '806', tw: '元大商業銀行', en: 'Yuanta Commercial Bank' },
  { code: '807', tw: '永豐商業銀行', en: 'Bank SinoPac' },
  { code: '808', tw: '玉山商業銀行', en: 'E.SUN Commercial Bank' },
  { code: '809', tw: '凱基商業銀行', en: 'KGI Bank' },
  { code: '810', tw: '星展(台灣)商業銀行', en: 'DBS Bank (Taiwan)' },
  { code: '812', tw: '台新國際商業銀行', en: 'Taishin International Bank' },
  { code: '816', tw: '安泰商業銀行', en: 'EnTie Commercial Bank' },
  { code: '822', tw: '中國信託商業銀行', en: 'CTBC Bank' },
  { code: '823', tw: '將來商業銀行', en: 'Next Commercial Bank' },
  { code: '824', tw: '連線商業銀行', en: 'LINE Bank Taiwan' },
  { code: '826', tw: '樂天國際商業銀行', en: 'Rakuten International Commercial Bank' },
];

const byCode: ReadonlyMap<string, TaiwanBank> = new Map(TAIWAN_BANKS.map((b) => [b.code, b]));

/** The listed bank with this code, or undefined (unknown codes are allowed: see the module note). */
export function bankByCode(code: string | null | undefined): TaiwanBank | undefined {
  return code ? byCode.get(code) : undefined;
}

/**
 * A card's bank name in the reader's language: the listed name for a listed code, else the name
 * the card was bound with.
 */
export function bankDisplayName(bankCode: string | null, boundName: string, lang: 'tw' | 'en'): string {
  return bankByCode(bankCode)?.[lang] ?? boundName;
}

/** A bank name compared loosely: NFKC, 台 → 臺, no spaces, brackets, 股份有限公司 or 商業, lower case. */
function nameKey(name: string): string {
  return name
    .normalize('NFKC')
    .replace(/台/g, '臺')
    .replace(/股份有限公司|商業|[\s()（）]/g, '')
    .toLowerCase();
}

const byName: ReadonlyMap<string, TaiwanBank> = new Map(
  TAIWAN_BANKS.flatMap((b) => [[nameKey(b.tw), b] as const, [nameKey(b.en), b] as const]),
);

/**
 * The listed bank a free-text bank name (a deposit channel's, typed by the operator) refers to:
 * a leading 3-digit code ("004 臺灣銀行", "(004)"), else its FISC name or English name compared
 * loosely (台/臺, with or without 商業 or 股份有限公司, any case: "第一銀行", "bank of taiwan").
 * Undefined when it is none of the listed banks.
 */
export function bankByName(name: string | null | undefined): TaiwanBank | undefined {
  if (!name) return undefined;
  const code = /^\s*[(（]?(\d{3})(?!\d)/.exec(name.normalize('NFKC'));
  if (code) return bankByCode(code[1]);
  return byName.get(nameKey(name));
}
