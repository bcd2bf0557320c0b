// Delivery addresses (docs/product.md sections 3 and 5): receiver name, a valid phone number for its country
// (libphonenumber-js, full metadata), area and detailed address, exactly one default. The same
// schema validates the web's form and the server's request, so both refuse the same input with
// the same message keys (`address.*`, translated by the web's locales and the server's catalogue).
import { parsePhoneNumberWithError, getCountries, type CountryCode } from 'libphonenumber-js/max';
import { z } from 'zod/mini';
import { envelope, idQuery, queryInt } from './common.ts';
import { route } from './route.ts';

/** A user keeps at most this many addresses. */
export const addressesPerUserMax = 20;
export const receiverNameMax = 50;
export const areaMax = 100;
export const detailMax = 200;

/** Countries a phone may be from (ISO 3166-1 alpha-2, as libphonenumber-js knows them). */
export const phoneCountries = getCountries();
export type PhoneCountry = CountryCode;

/** The message keys the address rules answer with (web: `address.errors.<key>`; server: `address.<key>`). */
export const addressErrorKeys = ['NAME_REQUIRED', 'PHONE_REQUIRED', 'PHONE_INVALID', 'AREA_REQUIRED', 'DETAIL_REQUIRED', 'TOO_LONG'] as const;
export type AddressErrorKey = (typeof addressErrorKeys)[number];
const msg = (key: AddressErrorKey) => `address.${key}`;

function requiredText(max: number, requiredKey: AddressErrorKey) {
  return z.string(msg(requiredKey)).check(z.trim(), z.minLength(1, msg(requiredKey)), z.maxLength(max, msg('TOO_LONG')));
}

/**
 * The phone number in E.164 for its country, or null when it is not a valid number there. Strict on
 * purpose: the whole text must be the number (libphonenumber-js would otherwise pull a number out of
 * "0912345678x"), a number of another country is refused even when written with its own "+code"
 * (the chosen country is part of the address), and an extension is refused rather than dropped.
 */
export function normalizePhone(phone: string, country: string): string | null {
  if (!(phoneCountries as readonly string[]).includes(country)) return null;
  try {
    const parsed = parsePhoneNumberWithError(phone, { defaultCountry: country as CountryCode, extract: false });
    if (parsed.country !== country || parsed.ext !== undefined || !parsed.isValid()) return null;
    return parsed.number;
  } catch {
    return null;
  }
}

const addressShape = z.object({
  receiver_name: requiredText(receiverNameMax, 'NAME_REQUIRED'),
  phone_country: z.pipe(
    z.string(msg('PHONE_INVALID')).check(z.trim(), z.toUpperCase()),
    z.enum(phoneCountries as [CountryCode, ...CountryCode[]], msg('PHONE_INVALID')),
  ),
  phone: z.string(msg('PHONE_REQUIRED')).check(z.trim(), z.minLength(1, msg('PHONE_REQUIRED')), z.maxLength(32, msg('PHONE_INVALID'))),
  area: requiredText(areaMax, 'AREA_REQUIRED'),
  detail: requiredText(detailMax, 'DETAIL_REQUIRED'),
  is_default: z._default(z.boolean(), false),
});

function withE164Phone<T extends { phone: string; phone_country: string }>(value: T, ctx: z.core.ParsePayload): T {
  const e164 = normalizePhone(value.phone, value.phone_country);
  if (!e164) {
    ctx.issues.push({ code: 'custom', path: ['phone'], message: msg('PHONE_INVALID'), input: value });
    return z.NEVER;
  }
  return { ...value, phone: e164 };
}

/**
 * The fields of an address as a user enters them. `phone` is normalised to E.164 for `phone_country`
 * (a number valid in another country than the one chosen is refused: the country is part of it).
 */
export const addressFields = z.pipe(addressShape, z.transform(withE164Phone));
export type AddressFields = z.output<typeof addressFields>;

export const addressItem = z.object({
  id: z.int(),
  receiver_name: z.string(),
  phone_country: z.string(),
  /** E.164. */
  phone: z.string(),
  area: z.string(),
  detail: z.string(),
  is_default: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AddressItem = z.infer<typeof addressItem>;

export const addressIdBody = z.object({ id: queryInt(1, 2 ** 31 - 1) });
export const addressEditBody = z.pipe(z.extend(addressShape, { id: queryInt(1, 2 ** 31 - 1) }), z.transform(withE164Phone));
export const addressList = z.object({ list: z.array(addressItem), total: z.int().check(z.gte(0)), max: z.int() });

export const addressRoutes = {
  list: route({
    method: 'GET',
    path: '/api/v1/address/list',
    input: undefined,
    response: envelope(addressList),
    auth: true,
    summary: 'My delivery addresses, the default first, then the newest (at most addressesPerUserMax)',
  }),
  detail: route({
    method: 'GET',
    path: '/api/v1/address/detail',
    input: idQuery,
    response: envelope(addressItem),
    auth: true,
    summary: "One of my addresses (another user's id answers NOT_FOUND)",
  }),
  getDefault: route({
    method: 'GET',
    path: '/api/v1/address/default',
    input: undefined,
    response: envelope(z.nullable(addressItem)),
    auth: true,
    summary: 'My default address, null when I have none',
  }),
  add: route({
    method: 'POST',
    path: '/api/v1/address/add',
    input: addressFields,
    response: envelope(addressItem),
    auth: true,
    summary: 'Add an address (the first one, or is_default true, becomes the default); ADDRESS_LIMIT_REACHED past the maximum',
  }),
  edit: route({
    method: 'POST',
    path: '/api/v1/address/edit',
    input: addressEditBody,
    response: envelope(addressItem),
    auth: true,
    summary: 'Edit an address; is_default true makes it the default (false never leaves me without one)',
  }),
  remove: route({
    method: 'POST',
    path: '/api/v1/address/delete',
    input: addressIdBody,
    response: envelope(z.object({ id: z.int(), default_id: z.nullable(z.int()) })),
    auth: true,
    summary: 'Delete an address; deleting the default makes the newest other address the default',
  }),
  setDefault: route({
    method: 'POST',
    path: '/api/v1/address/setDefault',
    input: addressIdBody,
    response: envelope(addressItem),
    auth: true,
    summary: 'Make an address the default (the previous default stops being it, in the same transaction)',
  }),
};
