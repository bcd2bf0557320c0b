// The address form's rules (docs/product.md section 5, docs/store.md "Addresses"): the contract's own schema
// checks the fields, so the form refuses exactly what the server refuses, with the same message
// keys (`address.*`, translated in the locales). The phone is entered in the local format of its
// country; the check turns it into E.164, which is what is sent and stored.
import { getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { addressFields, normalizePhone, phoneCountries, type AddressFields, type AddressItem } from '@nadi/api/store-address';
import type { Lang } from '../../lib/langs.ts';

export const addressFieldNames = ['receiver_name', 'phone_country', 'phone', 'area', 'detail'] as const;
export type AddressFieldName = (typeof addressFieldNames)[number];

export interface AddressFormValues {
  receiver_name: string;
  phone_country: string;
  phone: string;
  area: string;
  detail: string;
  is_default: boolean;
}

/** Field → message: a locale key from the check, or the server's translated text after a refusal. */
export type AddressFormErrors = Partial<Record<AddressFieldName, string>>;

export type AddressFormCheck = { ok: true; request: AddressFields } | { ok: false; errors: AddressFormErrors };

/** The phone country a new address starts with: the likeliest one for the interface language. */
export const defaultPhoneCountries: Record<Lang, CountryCode> = {
  TW: 'TW',
  EN: 'US',
  JP: 'JP',
  CN: 'CN',
  KO: 'KR',
  TH: 'TH',
  PT: 'BR',
  MS: 'MY',
  ID: 'ID',
  VN: 'VN',
};

export function emptyAddressForm(lang: Lang, isDefault: boolean): AddressFormValues {
  return { receiver_name: '', phone_country: defaultPhoneCountries[lang], phone: '', area: '', detail: '', is_default: isDefault };
}

/** An address to edit, its phone in the national format of its country, as a person types it. */
export function addressFormFrom(item: AddressItem): AddressFormValues {
  const parsed = parsePhoneNumberFromString(item.phone, item.phone_country as CountryCode);
  return {
    receiver_name: item.receiver_name,
    phone_country: item.phone_country,
    phone: parsed?.formatNational() ?? item.phone,
    area: item.area,
    detail: item.detail,
    is_default: item.is_default,
  };
}

function isFieldName(value: unknown): value is AddressFieldName {
  return (addressFieldNames as readonly unknown[]).includes(value);
}

/**
 * The fields as the request to send, or each field's first problem. The schema checks the phone
 * against its country only once every other field passes; it is checked here as well, so one
 * submit shows every problem at once.
 */
export function checkAddressForm(values: AddressFormValues): AddressFormCheck {
  const parsed = addressFields.safeParse(values);
  if (parsed.success) return { ok: true, request: parsed.data };
  const errors: AddressFormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (isFieldName(field) && errors[field] === undefined) errors[field] = issue.message;
  }
  const phone = values.phone.trim();
  if (errors.phone === undefined && phone !== '' && normalizePhone(phone, values.phone_country) === null) errors.phone = 'address.PHONE_INVALID';
  return { ok: false, errors };
}

/** The server's field messages (already translated) for the fields the form shows; the rest are left to a toast. */
export function serverFieldErrors(fields: Record<string, string>): AddressFormErrors {
  const errors: AddressFormErrors = {};
  for (const [path, message] of Object.entries(fields)) {
    const field = path.split('.')[0];
    if (isFieldName(field) && errors[field] === undefined) errors[field] = message;
  }
  return errors;
}

/**
 * Whether the "default" switch can be changed, and the value it is held at when it cannot: the
 * first address is always the default, and the current default stays it (the server never
 * leaves a user without one; another address becomes the default by being set as it).
 */
export function defaultSwitch(input: { isCurrentDefault: boolean; hasOtherAddresses: boolean }): { isLocked: boolean } {
  return { isLocked: input.isCurrentDefault || !input.hasOtherAddresses };
}

export interface CountryOption {
  value: string;
  label: string;
}

/** Every phone country as "name +code", named and sorted in the interface language (the browser's own names). */
export function phoneCountryOptions(tag: string): CountryOption[] {
  const names = new Intl.DisplayNames([tag], { type: 'region', fallback: 'code' });
  return phoneCountries
    .map((code) => ({ code, name: names.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, tag))
    .map(({ code, name }) => ({ value: code, label: `${name} +${getCountryCallingCode(code)}` }));
}

/** The calling code of a phone country ("+886"), empty for a code the library does not know. */
export function callingCode(country: string): string {
  return (phoneCountries as readonly string[]).includes(country) ? `+${getCountryCallingCode(country as CountryCode)}` : '';
}

/** A stored (E.164) phone for people to read: "+886 912 345 678". */
export function formatPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}
