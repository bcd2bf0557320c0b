// The plain constants of the HTTP contract, in a module that does not import zod: the web's
// first screen reads them (language codes, header names) without loading a schema library.
// common.ts and auth.ts re-export them, so every other import keeps working.

/** Language codes sent in the `lang` header (docs/product.md section 1); TW is the default. */
export const langs = ['TW', 'EN', 'JP', 'CN', 'KO', 'TH', 'PT', 'MS', 'ID', 'VN'] as const;
export type Lang = (typeof langs)[number];
export const defaultLang: Lang = 'TW';
export const langHeader = 'lang';
export const authHeader = 'authorization';
/** Sent by money-moving POSTs so a repeat returns the first result. */
export const idempotencyHeader = 'idempotency-key';

export function parseLang(value: unknown): Lang {
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return (langs as readonly string[]).includes(upper) ? (upper as Lang) : defaultLang;
}

export const successCode = 200;

/** An invite code as users type it, after trimming and upper-casing. */
export const inviteCodePattern = /^[A-Z0-9]{6,12}$/;
