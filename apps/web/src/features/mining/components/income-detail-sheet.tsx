import { useTranslation } from '../../../lib/translator.ts';
import Popup from 'antd-mobile/es/components/popup';
import { formatAmount, unitsOrZero } from '@nadi/money/money';
import type { IncomeEpochItem } from '@nadi/api/mining';
import { Icon } from '../../../components/icon.tsx';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { recomputeIncome } from '../calculator.ts';
import { formatBps, formatPower, formatPowerUnits, formatShare, parsePower } from '../mining-format.ts';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './mining.module.css';

/** An epoch's formula inputs and the income recomputed from them step by step, so a user can check it by hand. */
export function IncomeDetailSheet({ item, onClose }: { item: IncomeEpochItem | null; onClose: () => void }) {
  return (
    <Popup visible={item !== null} onMaskClick={onClose} onClose={onClose} position="bottom" bodyClassName={styles.incomeSheet} destroyOnClose>
      {item ? <IncomeDetail item={item} onClose={onClose} /> : null}
    </Popup>
  );
}

function IncomeDetail({ item, onClose }: { item: IncomeEpochItem; onClose: () => void }) {
  const { t } = useTranslation();
  const { inputs } = item;
  const recomputed = recomputeIncome(item);
  const network = parsePower(inputs.network_power) ?? 0n;
  const mine = parsePower(inputs.power) ?? 0n;
  const units = (value: bigint) => formatAmount(value, { fractionDigitsMax: amountDigitsShown });
  const show = (text: string) => formatMoney(text, amountDigitsShown);
  const paidSources = recomputed.sources.filter((source) => source.centiPower > 0n);
  const isPoolShort = unitsOrZero(inputs.payable) < unitsOrZero(inputs.emission);
  return (
    <div className={styles.incomeDetail} data-testid="income-detail">
      <header className={styles.incomeDetailHead}>
        <h2>{t('mining.income.detailTitle', { epoch: item.epoch })}</h2>
        <button type="button" className="icon-btn" onClick={onClose} aria-label={t('common.close')}>
          <Icon name="close" size={20} />
        </button>
      </header>
      <h3 className={styles.incomeDetailSection}>{t('mining.income.inputs')}</h3>
      <dl className={cx(styles.facts, moneyStyles.facts)}>
        <Row label={t('mining.income.myPower')} value={`${formatPower(inputs.power)} P`} />
        <Row label={t('mining.income.devicePower')} value={`${formatPower(inputs.device_power)} P`} isSub />
        <Row label={t('mining.income.destroyPower')} value={`${formatPower(inputs.destroy_power)} P`} isSub />
        <Row label={t('mining.income.otherPower')} value={`${formatPower(inputs.other_power)} P`} isSub />
        <Row label={t('mining.income.networkPower')} value={`${formatPower(inputs.network_power)} P`} />
        <Row label={t('mining.income.share')} value={formatShare(mine, network)} />
        <Row label={t('mining.income.emission')} value={`${show(inputs.emission)} NADI`} />
        <Row label={t('mining.income.payable')} value={`${show(inputs.payable)} NADI`} />
        <Row label={t('mining.income.price')} value={`${formatMoney(inputs.price, 6)} USDT`} />
        <Row
          label={t('mining.income.splitRule')}
          value={t('mining.income.splitValue', {
            immediate: formatBps(inputs.immediate_bps),
            locked: formatBps(10_000 - inputs.immediate_bps),
            epochs: inputs.vesting_epochs,
          })}
        />
      </dl>
      {isPoolShort ? <p className={moneyStyles.formHint}>{t('mining.income.poolShort')}</p> : null}
      <h3 className={styles.incomeDetailSection}>{t('mining.income.steps')}</h3>
      <ol className={styles.incomeSteps}>
        {paidSources.map((source) => (
          <li key={source.type}>
            <p className={styles.incomeStepsLabel}>{t(`records.type.${source.type}`)}</p>
            <p className={cx(styles.incomeStepsFormula, 'mono')}>
              {show(inputs.payable)} × {formatPowerUnits(source.centiPower)} ÷ {formatPower(inputs.network_power)} = {units(source.gross)}
            </p>
            {source.reduction > 0n ? (
              <p className={cx(styles.incomeStepsFormula, 'mono')}>
                − {units(source.reduction)} ({t('records.type.income_reduction')}) = {units(source.paid)}
              </p>
            ) : null}
          </li>
        ))}
        <li>
          <p className={styles.incomeStepsLabel}>{t('mining.income.total')}</p>
          <p className={cx(styles.incomeStepsFormula, 'mono')}>
            {paidSources.length > 1 ? `${paidSources.map((source) => units(source.paid)).join(' + ')} = ` : ''}
            {units(recomputed.total)} NADI
          </p>
        </li>
        <li>
          <p className={styles.incomeStepsLabel}>{t('mining.income.immediate')}</p>
          <p className={cx(styles.incomeStepsFormula, 'mono')}>
            {units(recomputed.total)} × {formatBps(inputs.immediate_bps)} = {units(recomputed.immediate)}
          </p>
        </li>
        <li>
          <p className={styles.incomeStepsLabel}>{t('mining.income.locked')}</p>
          <p className={cx(styles.incomeStepsFormula, 'mono')}>
            {units(recomputed.total)} − {units(recomputed.immediate)} = {units(recomputed.locked)}
          </p>
          <p className={styles.incomeStepsNote}>
            {t('mining.income.releaseNote', {
              amount: units(recomputed.releasePerEpoch),
              epochs: inputs.vesting_epochs,
            })}
          </p>
        </li>
      </ol>
      <p className={cx(styles.incomeDetailCheck, !recomputed.isMatch && styles.incomeDetailCheckOff)} data-testid="income-check">
        <Icon name={recomputed.isMatch ? 'check' : 'alert'} size={16} />
        {recomputed.isMatch ? t('mining.income.matches') : t('mining.income.differs')}
      </p>
    </div>
  );
}

function Row({ label, value, isSub = false }: { label: string; value: string; isSub?: boolean }) {
  return (
    <div className={cx(styles.factsRow, moneyStyles.factsRow, isSub && styles.factsRowSub)}>
      <dt>{label}</dt>
      <dd className="mono">{value}</dd>
    </div>
  );
}
