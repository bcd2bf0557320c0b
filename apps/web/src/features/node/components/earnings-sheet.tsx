import { useTranslation } from '../../../lib/translator.ts';
import Popup from 'antd-mobile/es/components/popup';
import type { NodeHolding } from '@nadi/api/node';
import { Icon } from '../../../components/icon.tsx';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { useNodeEarnings } from '../api/get-node-earnings.ts';
import { LevelBadge, showAmount } from './node-parts.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './node.module.css';

/** One node's earnings epoch by epoch (node/earnings): its mining income bonus and its dividend in each asset. */
export function EarningsSheet({ holding, onClose }: { holding: NodeHolding | null; onClose: () => void }) {
  return (
    <Popup visible={holding !== null} onMaskClick={onClose} onClose={onClose} position="bottom" bodyClassName={styles.nodeSheet} destroyOnClose>
      {holding ? <Earnings holding={holding} onClose={onClose} /> : null}
    </Popup>
  );
}

function Earnings({ holding, onClose }: { holding: NodeHolding; onClose: () => void }) {
  const { t } = useTranslation();
  const earnings = useNodeEarnings(holding.id);
  return (
    <div className={styles.nodeEarnings} data-testid="node-earnings">
      <header className={styles.nodeEarningsHead}>
        <h2 className={styles.nodeEarningsTitle}>
          <LevelBadge level={holding.level_id} />
          {t('node.earnings.title', { name: holding.name })}
        </h2>
        <button type="button" className="icon-btn" onClick={onClose} aria-label={t('common.close')}>
          <Icon name="close" size={20} />
        </button>
      </header>
      <p className={cx(styles.formHint, moneyStyles.formHint)}>{t('node.earnings.hint')}</p>
      <InfiniteList
        query={earnings}
        getKey={(item) => item.epoch}
        renderItem={(item) => (
          <article className={styles.earning} data-testid="node-earning">
            <p className={styles.earningEpoch}>{t('node.earnings.epoch', { epoch: item.epoch })}</p>
            <dl className={styles.earningLines}>
              <div>
                <dt>{t('node.earnings.miningIncome')}</dt>
                <dd className="mono">{showAmount(item.mining_income)} NADI</dd>
              </div>
              <div>
                <dt>{t('node.earnings.dividend')}</dt>
                <dd className="mono">{showAmount(item.dividend_nadi)} NADI</dd>
              </div>
              <div>
                <dt>{t('node.earnings.dividend')}</dt>
                <dd className="mono">{showAmount(item.dividend_usdt)} USDT</dd>
              </div>
            </dl>
          </article>
        )}
        errorTitle={t('node.earnings.loadFailed')}
        empty={{ title: t('node.earnings.empty'), hint: t('node.earnings.emptyHint'), icon: 'clock' }}
      />
    </div>
  );
}
