import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import { Icon } from '../../../components/icon.tsx';
import { useAwaitingDevices } from '../api/get-awaiting-devices.ts';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './mining.module.css';

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
      <p className={styles.awaitingDevicesFailed} role="alert">
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
    <section className={styles.awaitingDevices} aria-labelledby="awaiting-devices-title" data-testid="awaiting-devices">
      <div className={styles.miningSectionHead}>
        <h2 id="awaiting-devices-title" className={styles.miningSectionTitle}>
          {t('mining.awaiting.title', { n: total })}
        </h2>
      </div>
      <p className={moneyStyles.formHint}>{t('mining.awaiting.hint')}</p>
      <ul className={cx(moneyStyles.records, styles.awaitingDevicesList)}>
        {list.map((device) => (
          <li key={device.serial} className={cx(styles.record, moneyStyles.record, 'card')} data-testid="awaiting-device">
            <div className={moneyStyles.recordMain}>
              <h3 className={cx(moneyStyles.recordType, 'mono')}>{device.serial}</h3>
              <p className={moneyStyles.recordMeta}>{device.model}</p>
              <p className={moneyStyles.recordDate}>{t('mining.awaiting.order', { number: device.order_no })}</p>
            </div>
            <Link to={`/mining/activate?serial=${encodeURIComponent(device.serial)}`} className="btn btn--small" data-testid="awaiting-activate">
              <Icon name="key" size={16} />
              {t('mining.awaiting.activate')}
            </Link>
          </li>
        ))}
      </ul>
      {total > list.length ? <p className={moneyStyles.formHint}>{t('mining.awaiting.more', { n: total - list.length })}</p> : null}
    </section>
  );
}
