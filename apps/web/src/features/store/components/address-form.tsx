import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { areaMax, detailMax, receiverNameMax, type AddressFields, type AddressItem } from '@nadi/api/store-address';
import { Icon } from '../../../components/icon.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { langTags } from '../../../lib/langs.ts';
import { notify } from '../../../lib/notify.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useAddAddress } from '../api/address-add.ts';
import { useEditAddress } from '../api/address-edit.ts';
import { addressFailureText } from '../address-failure.ts';
import {
  addressFormFrom,
  callingCode,
  checkAddressForm,
  defaultSwitch,
  emptyAddressForm,
  phoneCountryOptions,
  serverFieldErrors,
  type AddressFieldName,
  type AddressFormErrors,
  type AddressFormValues,
} from '../address-form-state.ts';
import './address.css';

interface Props {
  /** The address being edited; absent for a new one. */
  address?: AddressItem;
  /** Whether the user has addresses besides this one (the first address is always the default). */
  hasOtherAddresses: boolean;
  /** Ids stay unique when the form shows on a screen that has another. */
  idPrefix: string;
  onSaved: (item: AddressItem) => void;
}

/**
 * The address form of the edit screen and of the order confirmation's inline add: receiver, phone
 * with its country, area, detailed address and the default switch. Problems show once a field was
 * left or a submit tried; the server's own field messages show under their fields.
 */
export function AddressForm({ address, hasOtherAddresses, idPrefix, onSaved }: Props) {
  const { t } = useTranslation();
  const lang = useLang();
  const [values, setValues] = useState<AddressFormValues>(() => (address ? addressFormFrom(address) : emptyAddressForm(lang, !hasOtherAddresses)));
  const [touched, setTouched] = useState<ReadonlySet<AddressFieldName>>(new Set());
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false);
  const [serverErrors, setServerErrors] = useState<AddressFormErrors>({});
  const add = useAddAddress();
  const edit = useEditAddress();
  const isBusy = add.isPending || edit.isPending;
  const countries = useMemo(() => phoneCountryOptions(langTags[lang]), [lang]);
  const check = checkAddressForm(values);
  const lock = defaultSwitch({ isCurrentDefault: address?.is_default ?? false, hasOtherAddresses });

  function errorOf(field: AddressFieldName): string | null {
    const server = serverErrors[field];
    if (server) return server;
    const key = check.ok ? undefined : check.errors[field];
    return key && (hasTriedSubmit || touched.has(field)) ? t(key) : null;
  }

  function change(field: keyof AddressFormValues, value: string | boolean) {
    setValues((current) => ({ ...current, [field]: value }));
    // The server's message was about what the field held before.
    if (field !== 'is_default') setServerErrors(({ [field]: _dropped, ...rest }) => rest);
  }

  function leave(field: AddressFieldName) {
    setTouched((current) => new Set(current).add(field));
  }

  function onRefused(error: unknown) {
    setServerErrors(isApiError(error) ? serverFieldErrors(error.failure.fields) : {});
    notify(addressFailureText(error, address ? 'edit' : 'add', t), 'fail');
  }

  function save(request: AddressFields) {
    const isDefault = lock.isLocked ? true : request.is_default;
    const options = {
      onSuccess: (item: AddressItem) => {
        notify(t(address ? 'address.saved' : 'address.added'), 'success');
        onSaved(item);
      },
      onError: onRefused,
    };
    if (address) edit.mutate({ ...request, is_default: isDefault, id: address.id }, options);
    else add.mutate({ ...request, is_default: isDefault }, options);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    // React passes events up through portals: the order confirmation's sheet must not submit the order.
    event.stopPropagation();
    setHasTriedSubmit(true);
    if (check.ok && !isBusy) save(check.request);
  }

  const id = (field: string) => `${idPrefix}-${field}`;
  return (
    <form className="address-form" onSubmit={submit} noValidate data-testid="address-form">
      <Field id={id('receiver_name')} label={t('address.field.receiverName')} error={errorOf('receiver_name')}>
        <input
          id={id('receiver_name')}
          className="address-input"
          value={values.receiver_name}
          maxLength={receiverNameMax}
          autoComplete="name"
          placeholder={t('address.placeholder.receiverName')}
          onChange={(event) => change('receiver_name', event.target.value)}
          onBlur={() => leave('receiver_name')}
          disabled={isBusy}
          {...invalidProps(id('receiver_name'), errorOf('receiver_name'))}
        />
      </Field>
      <Field id={id('phone')} label={t('address.field.phone')} error={errorOf('phone') ?? errorOf('phone_country')}>
        <div className="address-phone">
          <label className="address-phone__country">
            <span className="visually-hidden">{t('address.field.phoneCountry')}</span>
            <select value={values.phone_country} onChange={(event) => change('phone_country', event.target.value)} disabled={isBusy}>
              {countries.map((country) => (
                <option key={country.value} value={country.value}>
                  {country.label}
                </option>
              ))}
            </select>
            <span className="address-phone__code mono" aria-hidden="true">
              {values.phone_country} {callingCode(values.phone_country)}
              <Icon name="chevron" size={14} />
            </span>
          </label>
          <input
            id={id('phone')}
            className="address-input mono"
            type="tel"
            inputMode="tel"
            value={values.phone}
            maxLength={32}
            autoComplete="tel-national"
            placeholder={t('address.placeholder.phone')}
            onChange={(event) => change('phone', event.target.value)}
            onBlur={() => leave('phone')}
            disabled={isBusy}
            {...invalidProps(id('phone'), errorOf('phone'))}
          />
        </div>
      </Field>
      <Field id={id('area')} label={t('address.field.area')} error={errorOf('area')}>
        <input
          id={id('area')}
          className="address-input"
          value={values.area}
          maxLength={areaMax}
          autoComplete="address-level1"
          placeholder={t('address.placeholder.area')}
          onChange={(event) => change('area', event.target.value)}
          onBlur={() => leave('area')}
          disabled={isBusy}
          {...invalidProps(id('area'), errorOf('area'))}
        />
      </Field>
      <Field id={id('detail')} label={t('address.field.detail')} error={errorOf('detail')}>
        <textarea
          id={id('detail')}
          className="address-input address-input--area"
          rows={3}
          value={values.detail}
          maxLength={detailMax}
          autoComplete="street-address"
          placeholder={t('address.placeholder.detail')}
          onChange={(event) => change('detail', event.target.value)}
          onBlur={() => leave('detail')}
          disabled={isBusy}
          {...invalidProps(id('detail'), errorOf('detail'))}
        />
      </Field>
      <DefaultSwitch
        id={id('default')}
        isOn={lock.isLocked || values.is_default}
        isLocked={lock.isLocked}
        isDisabled={isBusy}
        hint={lock.isLocked ? t(address?.is_default ? 'address.defaultKept' : 'address.defaultFirst') : null}
        onChange={(isOn) => change('is_default', isOn)}
      />
      <button type="submit" className="btn btn--block" disabled={isBusy} data-testid="address-save">
        {isBusy ? t('address.saving') : t('address.save')}
      </button>
    </form>
  );
}

function invalidProps(id: string, error: string | null) {
  return error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};
}

function Field({ id, label, error, children }: { id: string; label: string; error: string | null; children: ReactNode }) {
  return (
    <div className={`address-field${error ? ' address-field--error' : ''}`}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

interface SwitchProps {
  id: string;
  isOn: boolean;
  isLocked: boolean;
  isDisabled: boolean;
  hint: string | null;
  onChange: (isOn: boolean) => void;
}

function DefaultSwitch({ id, isOn, isLocked, isDisabled, hint, onChange }: SwitchProps) {
  const { t } = useTranslation();
  return (
    <div className="address-default">
      <label htmlFor={id} className="address-default__label">
        <span>{t('address.field.isDefault')}</span>
        {hint ? <span className="address-default__hint">{hint}</span> : null}
      </label>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="address-switch"
        checked={isOn}
        disabled={isLocked || isDisabled}
        onChange={(event) => onChange(event.target.checked)}
        data-testid="address-default"
      />
    </div>
  );
}
