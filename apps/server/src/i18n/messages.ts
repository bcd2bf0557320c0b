import { langs, type Lang } from '@nadi/api/common';
import { errorTexts } from '@nadi/api/error-texts/index';
import type { ErrorReason } from '@nadi/api/errors';
import type { AddressErrorKey } from '@nadi/api/store-address';
import type { ParseError } from '@nadi/money/money';

/**
 * Server messages in every language of the product. The envelope's `msg` comes from here: an error
 * reason's text and a field problem's (`amount.*`, `address.*`) from the one error catalogue the web
 * shows too (packages/api/src/error-texts); only the word for success is the server's own.
 */
export type MessageKey = ErrorReason | 'OK' | `amount.${ParseError}` | `address.${AddressErrorKey}`;
type Catalogue = Record<MessageKey, string>;

const success: Record<Lang, string> = {
  TW: '成功',
  EN: 'Success',
  JP: '成功しました',
  CN: '成功',
  KO: '성공',
  TH: 'สำเร็จ',
  PT: 'Sucesso',
  MS: 'Berjaya',
  ID: 'Berhasil',
  VN: 'Thành công',
};

function prefixed<K extends string, P extends string>(prefix: P, texts: Readonly<Record<K, string>>): Record<`${P}.${K}`, string> {
  return Object.fromEntries(Object.entries(texts).map(([key, text]) => [`${prefix}.${key}`, text])) as Record<`${P}.${K}`, string>;
}

export const catalogues = Object.fromEntries(
  langs.map((lang) => {
    const texts = errorTexts[lang];
    const catalogue: Catalogue = { OK: success[lang], ...texts.errors, ...prefixed('amount', texts.amount), ...prefixed('address', texts.address) };
    return [lang, catalogue];
  }),
) as Record<Lang, Catalogue>;

export function translate(lang: Lang, key: MessageKey): string {
  return catalogues[lang][key];
}

export function isMessageKey(value: string): value is MessageKey {
  return value in catalogues.EN;
}
