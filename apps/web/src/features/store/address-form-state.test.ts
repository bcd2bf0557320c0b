import { describe, expect, it } from 'vitest';
import type { AddressItem } from '@nadi/api/store-address';
import {
  addressFormFrom,
  callingCode,
  checkAddressForm,
  defaultSwitch,
  emptyAddressForm,
  formatPhone,
  phoneCountryOptions,
  serverFieldErrors,
  type AddressFormValues,
} from './address-form-state.ts';

const filled: AddressFormValues = {
  receiver_name: '  王小明 ',
  phone_country: 'TW',
  phone: '0912 345 678',
  area: '台北市信義區',
  detail: '松仁路 100 號 12 樓',
  is_default: false,
};

const stored: AddressItem = {
  id: 4,
  receiver_name: 'Ana Souza',
  phone_country: 'BR',
  phone: '+5511987654321',
  area: 'São Paulo, SP',
  detail: 'Av. Paulista, 1000, apto 12',
  is_default: true,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
};

describe('the address form (docs/product.md section 5)', () => {
  it('turns a filled form into the request: trimmed, the phone in E.164 for its country', () => {
    expect(checkAddressForm(filled)).toEqual({
      ok: true,
      request: {
        receiver_name: '王小明',
        phone_country: 'TW',
        phone: '+886912345678',
        area: '台北市信義區',
        detail: '松仁路 100 號 12 樓',
        is_default: false,
      },
    });
  });

  it('names every missing field at once, with its translated message key', () => {
    const check = checkAddressForm({ ...emptyAddressForm('TW', false), receiver_name: '   ' });
    expect(check).toEqual({
      ok: false,
      errors: {
        receiver_name: 'address.NAME_REQUIRED',
        phone: 'address.PHONE_REQUIRED',
        area: 'address.AREA_REQUIRED',
        detail: 'address.DETAIL_REQUIRED',
      },
    });
  });

  it('refuses a phone that is not valid in the chosen country, even while other fields are missing', () => {
    // A Taiwanese mobile number is not a Japanese one: the country is part of the number.
    expect(checkAddressForm({ ...filled, phone_country: 'JP' })).toEqual({ ok: false, errors: { phone: 'address.PHONE_INVALID' } });
    expect(checkAddressForm({ ...filled, area: '', phone: '12' })).toEqual({
      ok: false,
      errors: { area: 'address.AREA_REQUIRED', phone: 'address.PHONE_INVALID' },
    });
  });

  it('refuses text longer than the contract allows', () => {
    expect(checkAddressForm({ ...filled, receiver_name: 'x'.repeat(51) })).toEqual({ ok: false, errors: { receiver_name: 'address.TOO_LONG' } });
    expect(checkAddressForm({ ...filled, detail: 'x'.repeat(201) })).toEqual({ ok: false, errors: { detail: 'address.TOO_LONG' } });
    expect(checkAddressForm({ ...filled, detail: 'x'.repeat(200) }).ok).toBe(true);
  });

  it('starts a new address with the phone country of the interface language', () => {
    expect(emptyAddressForm('TW', true)).toMatchObject({ phone_country: 'TW', is_default: true });
    expect(emptyAddressForm('KO', false).phone_country).toBe('KR');
    expect(emptyAddressForm('MS', false).phone_country).toBe('MY');
  });

  it('opens a stored address with its phone in the local format, which checks back to the same number', () => {
    const form = addressFormFrom(stored);
    expect(form).toMatchObject({ phone_country: 'BR', phone: '(11) 98765-4321', is_default: true });
    const check = checkAddressForm(form);
    expect(check.ok && check.request.phone).toBe('+5511987654321');
  });

  it('keeps the server’s field messages for the fields it shows', () => {
    expect(serverFieldErrors({ phone: 'Please enter a valid phone number', 'detail.0': 'Too long', id: 'Invalid' })).toEqual({
      phone: 'Please enter a valid phone number',
      detail: 'Too long',
    });
  });

  it('holds the default switch on for the first address and for the current default', () => {
    expect(defaultSwitch({ isCurrentDefault: false, hasOtherAddresses: false })).toEqual({ isLocked: true });
    expect(defaultSwitch({ isCurrentDefault: true, hasOtherAddresses: true })).toEqual({ isLocked: true });
    expect(defaultSwitch({ isCurrentDefault: false, hasOtherAddresses: true })).toEqual({ isLocked: false });
  });

  it('lists the phone countries by name in the interface language, with their calling codes', () => {
    const english = phoneCountryOptions('en');
    expect(english.find((option) => option.value === 'TW')?.label).toBe('Taiwan +886');
    expect(english.find((option) => option.value === 'US')?.label).toBe('United States +1');
    const names = english.map((option) => option.label);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(phoneCountryOptions('ja').find((option) => option.value === 'JP')?.label).toBe('日本 +81');
  });

  it('names the calling code of the chosen country', () => {
    expect(callingCode('TW')).toBe('+886');
    expect(callingCode('XX')).toBe('');
  });

  it('shows a stored phone in the international format', () => {
    expect(formatPhone('+886912345678')).toBe('+886 912 345 678');
    expect(formatPhone('not a phone')).toBe('not a phone');
  });
});
