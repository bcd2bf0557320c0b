import { useMemo, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
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
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './address.module.css';

interface Props {
  /** The address being edited; absent for a new one. */
  address?: AddressItem;
  /** Whether the user has addresses besides this one (the first address is always the default). */
  hasOtherAddresses: boolean;
  /** Ids stay unique when the form shows on a screen that has another. */
  idPrefix: string;
  onSaved: (item: AddressItem) => void;
}

type TextFieldName = 'receiver_name' | 'phone' | 'area' | 'detail';

/**
 * The address form of the edit screen and of the order confirmation's inline add: receiver, phone
 * with its country, area, detailed address and the default switch. Problems show once a field was
 * left or a submit tried; the server's own field messages show under their fields.
 */
export function AddressForm(props: Props) {
  const { t } = useTranslation();
  const form = useAddressForm(props);
  const id = (field: string) => `${props.idPrefix}-${field}`;
  // What every text field shares: its value, its messages and the busy state.
  const text = (field: TextFieldName) => ({
    id: id(field),
    value: form.values[field],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => form.change(field, event.target.value),
    onBlur: () => form.leave(field),
    disabled: form.isBusy,
    ...invalidProps(id(field), form.errorOf(field)),
  });
  return (
    <form className={styles.addressForm} onSubmit={form.submit} noValidate data-testid="address-form">
      <Field id={id('receiver_name')} label={t('address.field.receiverName')} error={form.errorOf('receiver_name')}>
        <input
          {...text('receiver_name')}
          className={styles.addressInput}
          maxLength={receiverNameMax}
          autoComplete="name"
          placeholder={t('address.placeholder.receiverName')}
        />
      </Field>
      <Field id={id('phone')} label={t('address.field.phone')} error={form.errorOf('phone') ?? form.errorOf('phone_country')}>
        <div className={styles.addressPhone}>
          <CountryPicker value={form.values.phone_country} isDisabled={form.isBusy} onChange={(country) => form.change('phone_country', country)} />
          <input
            {...text('phone')}
            className={cx(styles.addressInput, 'mono')}
            type="tel"
            inputMode="tel"
            maxLength={32}
            autoComplete="tel-national"
            placeholder={t('address.placeholder.phone')}
          />
        </div>
      </Field>
      <Field id={id('area')} label={t('address.field.area')} error={form.errorOf('area')}>
        <input
          {...text('area')}
          className={styles.addressInput}
          maxLength={areaMax}
          autoComplete="address-level1"
          placeholder={t('address.placeholder.area')}
        />
      </Field>
      <Field id={id('detail')} label={t('address.field.detail')} error={form.errorOf('detail')}>
        <textarea
          {...text('detail')}
          className={cx(styles.addressInput, styles.addressInputArea)}
          rows={3}
          maxLength={detailMax}
          autoComplete="street-address"
          placeholder={t('address.placeholder.detail')}
        />
      </Field>
      <DefaultSwitch
        id={id('default')}
        isOn={form.lock.isLocked || form.values.is_default}
        isLocked={form.lock.isLocked}
        isDisabled={form.isBusy}
        hint={form.lock.isLocked ? t(props.address?.is_default ? 'address.defaultKept' : 'address.defaultFirst') : null}
        onChange={(isOn) => form.change('is_default', isOn)}
      />
      <button type="submit" className="btn btn--block" disabled={form.isBusy} data-testid="address-save">
        {form.isBusy ? t('address.saving') : t('address.save')}
      </button>
    </form>
  );
}

/** The form's values, which messages show, and saving (add or edit) with the server's refusals. */
function useAddressForm({ address, hasOtherAddresses, onSaved }: Props) {
  const { t } = useTranslation();
  const lang = useLang();
  const [values, setValues] = useState<AddressFormValues>(() => (address ? addressFormFrom(address) : emptyAddressForm(lang, !hasOtherAddresses)));
  const [touched, setTouched] = useState<ReadonlySet<AddressFieldName>>(new Set());
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false);
  const [serverErrors, setServerErrors] = useState<AddressFormErrors>({});
  const add = useAddAddress();
  const edit = useEditAddress();
  const isBusy = add.isPending || edit.isPending;
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

  function save(request: AddressFields) {
    const body = { ...request, is_default: lock.isLocked || request.is_default };
    const options = {
      onSuccess: (item: AddressItem) => {
        notify(t(address ? 'address.saved' : 'address.added'), 'success');
        onSaved(item);
      },
      onError: (error: unknown) => {
        setServerErrors(isApiError(error) ? serverFieldErrors(error.failure.fields) : {});
        notify(addressFailureText(error, address ? 'edit' : 'add', t), 'fail');
      },
    };
    if (address) edit.mutate({ ...body, id: address.id }, options);
    else add.mutate(body, options);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    // React passes events up through portals: a form in a sheet must not submit a form around it.
    event.stopPropagation();
    setHasTriedSubmit(true);
    if (check.ok && !isBusy) save(check.request);
  }

  const leave = (field: AddressFieldName) => setTouched((current) => new Set(current).add(field));
  return { values, isBusy, lock, errorOf, change, leave, submit };
}

/** The phone's country: the phone's own picker (every country, named in the interface language), shown as its code. */
function CountryPicker({ value, isDisabled, onChange }: { value: string; isDisabled: boolean; onChange: (country: string) => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const countries = useMemo(() => phoneCountryOptions(langTags[lang]), [lang]);
  return (
    <label className={styles.addressPhoneCountry}>
      <span className="visually-hidden">{t('address.field.phoneCountry')}</span>
      <select value={value} onChange={(event) => onChange(event.target.value)} disabled={isDisabled}>
        {countries.map((country) => (
          <option key={country.value} value={country.value}>
            {country.label}
          </option>
        ))}
      </select>
      <span className={cx(styles.addressPhoneCode, 'mono')} aria-hidden="true">
        {value} {callingCode(value)}
        <Icon name="chevron" size={14} />
      </span>
    </label>
  );
}

function invalidProps(id: string, error: string | null) {
  return error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};
}

function Field({ id, label, error, children }: { id: string; label: string; error: string | null; children: ReactNode }) {
  return (
    <div className={cx(styles.addressField, error && 'address-field--error')}>
      <label htmlFor={id} className={moneyStyles.fieldLabel}>
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className={cx(styles.fieldError, moneyStyles.fieldError)} role="alert">
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
    <div className={styles.addressDefault}>
      <label htmlFor={id} className={styles.addressDefaultLabel}>
        <span>{t('address.field.isDefault')}</span>
        {hint ? <span className={styles.addressDefaultHint}>{hint}</span> : null}
      </label>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className={styles.addressSwitch}
        checked={isOn}
        disabled={isLocked || isDisabled}
        onChange={(event) => onChange(event.target.checked)}
        data-testid="address-default"
      />
    </div>
  );
}
