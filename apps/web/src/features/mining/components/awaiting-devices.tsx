import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '../../../components/icon.tsx';
import { useAwaitingDevices } from '../api/get-awaiting-devices.ts';

/**
 * Devices from received store orders that wait for their activation code (docs/store.md "Shipping
 * and devices"). Most users have none, so the section shows only when there is something to do,
 * or when it could not be read.
 */
export function AwaitingDevices() {
  const { t } = useTranslation();
  const devices = useAwaitingDevices();
  if (devices.isPending) return null;
  if (!devices.data) {
    return (
      <p className="awaiting-devices__failed" role="alert">
        {t('mining.awaiting.loadFailed')}
        <button type="button" className="btn btn--ghost btn--small" onClick={() => void devices.refetch()}>
          {t('common.retry')}
        </button>
      </p>
    );
  }
  const { list, total } = devices.data;
  if (list.length === 0) return null;
  return (
    <section className="awaiting-devices" aria-labelledby="awaiting-devices-title" data-testid="awaiting-devices">
      <div className="mining-section-head">
        <h2 id="awaiting-devices-title" className="mining-section-title">
          {t('mining.awaiting.title', { n: total })}
        </h2>
      </div>
      <p className="form-hint">{t('mining.awaiting.hint')}</p>
      <ul className="records awaiting-devices__list">
        {list.map((device) => (
          <li key={device.serial} className="record card" data-testid="awaiting-device">
            <div className="record__main">
              <h3 className="record__type mono">{device.serial}</h3>
              <p className="record__meta">{device.model}</p>
              <p className="record__date">{t('mining.awaiting.order', { number: device.order_no })}</p>
            </div>
            <Link to={`/mining/activate?serial=${encodeURIComponent(device.serial)}`} className="btn btn--small" data-testid="awaiting-activate">
              <Icon name="key" size={16} />
              {t('mining.awaiting.activate')}
            </Link>
          </li>
        ))}
      </ul>
      {total > list.length ? <p className="form-hint">{t('mining.awaiting.more', { n: total - list.length })}</p> : null}
    </section>
  );
}
