import { describe, expect, it } from 'vitest';
import { addressEditBody, addressFields, areaMax, detailMax, normalizePhone, receiverNameMax } from './store-address.ts';

const valid = { receiver_name: 'Lin Mei', phone_country: 'TW', phone: '0912 345 678', area: 'Taipei City, Da-an District', detail: 'No. 1, Lane 2' };

/** The message keys a parse answers with, by field ('' when it passes). */
function problems(input: unknown): Record<string, string> {
  const result = addressFields.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('address fields', () => {
  it('accepts a complete address, trims the texts and stores the phone in E.164', () => {
    const parsed = addressFields.parse({ ...valid, receiver_name: '  Lin Mei ', phone_country: 'tw', area: ' Taipei ' });
    expect(parsed).toEqual({ ...valid, receiver_name: 'Lin Mei', area: 'Taipei', phone: '+886912345678', is_default: false });
  });

  it('requires every field, each with its own message', () => {
    expect(problems({})).toEqual({
      receiver_name: 'address.NAME_REQUIRED',
      phone_country: 'address.PHONE_INVALID',
      phone: 'address.PHONE_REQUIRED',
      area: 'address.AREA_REQUIRED',
      detail: 'address.DETAIL_REQUIRED',
    });
    expect(problems({ ...valid, receiver_name: '   ' })).toEqual({ receiver_name: 'address.NAME_REQUIRED' });
    expect(problems({ ...valid, phone: ' ' })).toEqual({ phone: 'address.PHONE_REQUIRED' });
    expect(problems({ ...valid, area: '' })).toEqual({ area: 'address.AREA_REQUIRED' });
    expect(problems({ ...valid, detail: '\t' })).toEqual({ detail: 'address.DETAIL_REQUIRED' });
    expect(problems({ ...valid, receiver_name: null })).toEqual({ receiver_name: 'address.NAME_REQUIRED' });
  });

  it('limits the lengths (after trimming)', () => {
    expect(problems({ ...valid, receiver_name: 'x'.repeat(receiverNameMax) })).toEqual({});
    expect(problems({ ...valid, receiver_name: ` ${'x'.repeat(receiverNameMax)} ` })).toEqual({});
    expect(problems({ ...valid, receiver_name: 'x'.repeat(receiverNameMax + 1) })).toEqual({ receiver_name: 'address.TOO_LONG' });
    expect(problems({ ...valid, area: 'x'.repeat(areaMax + 1) })).toEqual({ area: 'address.TOO_LONG' });
    expect(problems({ ...valid, detail: 'x'.repeat(detailMax) })).toEqual({});
    expect(problems({ ...valid, detail: 'x'.repeat(detailMax + 1) })).toEqual({ detail: 'address.TOO_LONG' });
  });

  it.each([
    ['a Taiwan mobile, national form', '0912-345-678', 'TW', '+886912345678'],
    ['a Taiwan mobile, international form', '+886 912 345 678', 'TW', '+886912345678'],
    ['a Taiwan landline', '02 2720 8889', 'TW', '+886227208889'],
    ['a US number', '(201) 555-0123', 'US', '+12015550123'],
    ['a US number with its code', '+1 201 555 0123', 'us', '+12015550123'],
  ])('accepts %s', (_name, phone, phone_country, e164) => {
    expect(addressFields.parse({ ...valid, phone, phone_country }).phone).toBe(e164);
  });

  it.each([
    ['a Taiwan number sent with country US', '+886912345678', 'US'],
    ['a Taiwan number written nationally with country US', '0912345678', 'US'],
    ['a Canadian number with country US', '+1 604 555 0123', 'US'],
    ['a US number with country TW', '+1 201 555 0123', 'TW'],
    ['letters', 'abc', 'TW'],
    ['a number with a letter after it', '0912345678x', 'TW'],
    ['a number in words', '1-800-FLOWERS', 'US'],
    ['an extension', '0912-345-678 ext 5', 'TW'],
    ['too few digits', '0912', 'TW'],
    ['too many digits', '09123456789', 'TW'],
  ])('refuses %s', (_name, phone, phone_country) => {
    expect(problems({ ...valid, phone, phone_country })).toHaveProperty('phone', 'address.PHONE_INVALID');
  });

  it('refuses an unknown country as an invalid phone', () => {
    expect(problems({ ...valid, phone_country: 'XX' })).toMatchObject({ phone_country: 'address.PHONE_INVALID' });
    expect(normalizePhone('0912345678', 'tw')).toBeNull();
  });

  it('an edit carries the id and the same rules', () => {
    expect(addressEditBody.parse({ ...valid, id: '7', is_default: true })).toMatchObject({ id: 7, phone: '+886912345678', is_default: true });
    expect(addressEditBody.safeParse({ ...valid, id: 7, phone: '+886912345678', phone_country: 'US' }).success).toBe(false);
    expect(addressEditBody.safeParse({ ...valid, id: 0 }).success).toBe(false);
  });
});
