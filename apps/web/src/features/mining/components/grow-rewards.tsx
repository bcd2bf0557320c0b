import { useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { formatAmount, unitsOrZero } from '@nadi/money/money';
import type { NodeTier } from '@nadi/api/node';
import type { PledgeProduct } from '@nadi/api/pledge';
import { Segmented } from '../../../components/segmented.tsx';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { amountProblemKey } from '../../../lib/amount/amount-check.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { formatPowerUnits } from '../../../lib/power-format.ts';
import { epochsPerMonth, epochsPerYear, estimateSavings, nodeDividendBpsDefault, percentTextOfPpm, ppmOfPercentText } from '../../../lib/reward-formulas.ts';
import { savingsName } from '../../../lib/savings-name.ts';
import { useNodeTiers } from '../api/get-node-tiers.ts';
import { useSavingsProducts } from '../api/get-savings-products.ts';
import { formatBps } from '../mining-format.ts';
import { checkNadiText, soldWeight, tierBonus, tierDividend, type NadiCheck } from '../reward-calculator.ts';
import { CalculatorField } from './calculator-field.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import filterSelectStyles from '../../../components/filter-select.module.css';
import styles from './mining.module.css';

// /grow's sections on what nodes and savings earn (docs/nodes-and-savings.md), each with the
// numbers in force and a small calculator running the settlement's formulas.

const nadi = (units: bigint) => `${formatAmount(units, { fractionDigitsMax: amountDigitsShown })} NADI`;

/** A section that needs a list from the server: its own loading and error states. */
function Loaded<T>({
  query,
  title,
  children,
}: {
  query: { data?: T; isPending: boolean; error: unknown; refetch: () => unknown };
  title: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <LoadingView />;
  if (query.data === undefined) return <ErrorView title={title} error={query.error} onRetry={() => void query.refetch()} />;
  return children(query.data);
}

/** The node bonus and the node fee dividend, explained on the tiers on sale. */
export function NodeRewardSections({ incomeEstimate }: { incomeEstimate: string }) {
  const { t } = useTranslation();
  const tiers = useNodeTiers();
  return (
    <Loaded query={tiers} title={t('mining.savings.grow.nodesFailed')}>
      {(list) => {
        const sorted = [...list].sort((a, b) => a.level_id - b.level_id);
        if (sorted.length === 0) return null;
        return (
          <>
            <NodeBonus tiers={sorted} incomeEstimate={incomeEstimate} />
            <NodeDividend tiers={sorted} />
          </>
        );
      }}
    </Loaded>
  );
}

function TierPicker({ tiers, value, onChange }: { tiers: NodeTier[]; value: number; onChange: (levelId: number) => void }) {
  const { t } = useTranslation();
  return (
    <Segmented
      label={t('mining.savings.grow.tier')}
      value={String(value)}
      options={tiers.map((tier) => ({ value: String(tier.level_id), label: `T${tier.level_id}` }))}
      onChange={(next) => onChange(Number(next))}
    />
  );
}

function NodeBonus({ tiers, incomeEstimate }: { tiers: NodeTier[]; incomeEstimate: string }) {
  const { t } = useTranslation();
  const [incomeText, setIncomeText] = useState(() => formatAmount(unitsOrZero(incomeEstimate), { fractionDigitsMax: 4, groupSeparator: '' }));
  const [level, setLevel] = useState(tiers[0]?.level_id ?? 1);
  const tier = tiers.find((item) => item.level_id === level) ?? tiers[0];
  const income = checkNadiText(incomeText);
  const bonus = income.ok && tier ? tierBonus(income.units, tier) : null;
  return (
    <section className={cx(styles.formula, 'card')} data-testid="grow-node-bonus">
      <h2 className={styles.formulaTitle}>{t('mining.savings.grow.bonusTitle')}</h2>
      <p className={cx(styles.formulaMath, 'mono')}>{t('mining.savings.grow.bonusFormula')}</p>
      <p className={styles.formulaText}>{tiers.map((item) => `T${item.level_id} +${item.machine_rate}%`).join(' · ')}</p>
      <p className={styles.formulaText}>{t('mining.savings.grow.bonusText')}</p>
      <div className={styles.growCalc}>
        <NadiField id="calc-node-income" label={t('mining.savings.grow.income')} value={incomeText} onChange={setIncomeText} check={income} />
        <TierPicker tiers={tiers} value={level} onChange={setLevel} />
        <dl className={cx(styles.facts, moneyStyles.facts, styles.calculatorResult)}>
          <div className={cx(styles.factsRow, moneyStyles.factsRow, styles.factsRowReceive)}>
            <dt>{t('mining.savings.grow.bonus', { rate: tier?.machine_rate ?? '—' })}</dt>
            <dd className="mono" data-testid="calc-node-bonus">
              {bonus === null ? '—' : nadi(bonus)}
            </dd>
          </div>
        </dl>
      </div>
    </section>
  );
}

function NodeDividend({ tiers }: { tiers: NodeTier[] }) {
  const { t } = useTranslation();
  const [feesText, setFeesText] = useState('1000');
  const [level, setLevel] = useState(tiers[tiers.length - 1]?.level_id ?? 1);
  const tier = tiers.find((item) => item.level_id === level) ?? tiers[0];
  const fees = checkNadiText(feesText);
  const sold = soldWeight(tiers);
  const share = formatBps(Number(nodeDividendBpsDefault));
  const estimate = fees.ok && tier ? tierDividend(fees.units, tier, sold) : null;
  return (
    <section className={cx(styles.formula, 'card')} data-testid="grow-node-dividend">
      <h2 className={styles.formulaTitle}>{t('mining.savings.grow.dividendTitle')}</h2>
      <p className={cx(styles.formulaMath, 'mono')}>{t('mining.savings.grow.dividendFormula', { share })}</p>
      <p className={styles.formulaText}>{tiers.map((item) => `T${item.level_id} × ${item.withdraw_rate}`).join(' · ')}</p>
      <p className={styles.formulaText}>{t('mining.savings.grow.dividendText', { share, weight: sold.toString() })}</p>
      <div className={styles.growCalc}>
        <NadiField id="calc-node-fees" label={t('mining.savings.grow.fees')} value={feesText} onChange={setFeesText} check={fees} />
        <TierPicker tiers={tiers} value={level} onChange={setLevel} />
        <dl className={cx(styles.facts, moneyStyles.facts, styles.calculatorResult)}>
          <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
            <dt>{t('mining.savings.grow.shared', { share })}</dt>
            <dd className="mono">{estimate ? nadi(estimate.shared) : '—'}</dd>
          </div>
          <div className={cx(styles.factsRow, moneyStyles.factsRow, styles.factsRowReceive)}>
            <dt>{t('mining.savings.grow.perNode', { weight: tier?.withdraw_rate ?? 0, total: estimate?.totalWeight.toString() ?? '—' })}</dt>
            <dd className="mono" data-testid="calc-node-dividend">
              {estimate ? nadi(estimate.perNode) : '—'}
            </dd>
          </div>
        </dl>
      </div>
    </section>
  );
}

/** Savings interest: the rate formulas on the products in force and a calculator for one of them. */
export function SavingsSection() {
  const { t } = useTranslation();
  const products = useSavingsProducts();
  return (
    <Loaded query={products} title={t('mining.savings.grow.productsFailed')}>
      {(list) => (list.length === 0 ? null : <SavingsCalculator products={list} />)}
    </Loaded>
  );
}

function SavingsCalculator({ products }: { products: PledgeProduct[] }) {
  const { t } = useTranslation();
  const [productId, setProductId] = useState(products[0]?.id ?? 0);
  const product = products.find((item) => item.id === productId) ?? products[0];
  const [amountText, setAmountText] = useState('1000');
  const amount = checkNadiText(amountText);
  const estimate = amount.ok && product ? estimateSavings(product, amount.units) : null;
  const nameOf = (item: PledgeProduct) => {
    const name = savingsName(item.kind, item.term_epochs);
    return t(name.key, name.params);
  };
  return (
    <section className={cx(styles.formula, 'card')} data-testid="grow-savings">
      <h2 className={styles.formulaTitle}>{t('mining.savings.grow.savingsTitle')}</h2>
      <p className={cx(styles.formulaMath, 'mono')}>{t('mining.savings.grow.interestFormula')}</p>
      <p className={cx(styles.formulaMath, 'mono')}>{t('mining.savings.grow.rateFormula')}</p>
      <p className={cx(styles.formulaMath, 'mono')}>{t('mining.savings.grow.jointFormula')}</p>
      <p className={cx(styles.formulaMath, 'mono')}>{t('mining.savings.grow.powerFormula')}</p>
      <p className={styles.formulaText}>{t('mining.savings.grow.savingsText')}</p>
      <div className={styles.growCalc}>
        <label className={cx(filterSelectStyles.filterSelect, 'grow-calc__select')}>
          <span className={filterSelectStyles.filterSelectLabel}>{t('mining.savings.grow.product')}</span>
          <select value={product?.id ?? ''} onChange={(event) => setProductId(Number(event.target.value))} data-testid="calc-savings-product">
            {products.map((item) => (
              <option key={item.id} value={item.id}>
                {nameOf(item)}
              </option>
            ))}
          </select>
        </label>
        {product ? <RateLine product={product} /> : null}
        <NadiField id="calc-savings-amount" label={t('mining.savings.grow.amount')} value={amountText} onChange={setAmountText} check={amount} />
        <dl className={cx(styles.facts, moneyStyles.facts, styles.calculatorResult)} data-testid="calc-savings-result">
          <Row label={t('mining.savings.grow.perDay')} value={estimate ? nadi(estimate.perEpoch) : '—'} isReceive testId="calc-savings-day" />
          <Row label={t('mining.savings.grow.perMonth')} value={estimate ? nadi(estimate.perMonth) : '—'} />
          <Row label={t('mining.savings.grow.perYear')} value={estimate ? nadi(estimate.perYear) : '—'} />
          {product && product.term_epochs > 0 ? (
            <Row label={t('mining.savings.grow.perTerm', { days: product.term_epochs })} value={estimate?.perTerm ? nadi(estimate.perTerm) : '—'} />
          ) : null}
          <Row label={t('mining.savings.grow.power')} value={estimate ? `+${formatPowerUnits(estimate.centiPower)} P` : '—'} testId="calc-savings-power" />
        </dl>
      </div>
      <p className={moneyStyles.formHint}>{t('mining.savings.grow.savingsNote')}</p>
    </section>
  );
}

/** The chosen product's rates worked through: day, × 30, × 365; joint: today's budget ÷ pool. */
function RateLine({ product }: { product: PledgeProduct }) {
  const { t } = useTranslation();
  const ppm = ppmOfPercentText(product.day_rate);
  if (product.kind === 'joint' || ppm === null) {
    return (
      <p className={styles.formulaText}>
        {t('mining.savings.grow.jointNow', {
          budget: formatMoney(product.epoch_budget ?? '0', 2),
          pool: formatMoney(product.total_pledge, 2),
          rate: product.day_rate,
        })}
      </p>
    );
  }
  return (
    <p className={cx(styles.formulaText, 'mono')}>
      {t('mining.savings.grow.rateNow', {
        day: percentTextOfPpm(ppm),
        month: percentTextOfPpm(ppm * epochsPerMonth),
        apr: percentTextOfPpm(ppm * epochsPerYear),
      })}
    </p>
  );
}

function Row({ label, value, isReceive = false, testId }: { label: string; value: string; isReceive?: boolean; testId?: string }) {
  return (
    <div className={cx(styles.factsRow, moneyStyles.factsRow, isReceive && styles.factsRowReceive)}>
      <dt>{label}</dt>
      <dd className="mono" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function NadiField({ id, label, value, onChange, check }: { id: string; label: string; value: string; onChange: (text: string) => void; check: NadiCheck }) {
  const { t } = useTranslation();
  return <CalculatorField id={id} label={label} unit="NADI" value={value} onChange={onChange} error={check.ok ? null : t(amountProblemKey(check.problem))} />;
}
