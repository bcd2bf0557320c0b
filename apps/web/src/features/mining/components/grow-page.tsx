import { useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { formatAmount, unitsOrZero } from '@nadi/money/money';
import { usdtValueOf } from '@nadi/economy/economy';
import type { MiningOverview } from '@nadi/api/mining';
import { langTags } from '../../../lib/langs.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { checkCalculator, estimateIncome, powerProblemKey, type PowerCheck } from '../calculator.ts';
import { economyParams, formatBps, formatDuration, formatPower } from '../mining-format.ts';
import { NodeRewardSections, SavingsSection } from './grow-rewards.tsx';
import { OverviewGate } from './overview-gate.tsx';
import { CalculatorField } from './calculator-field.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './mining.module.css';

/** /grow: how mining, node and savings income is computed, with the numbers in force, and calculators. */
export default function GrowPage() {
  return <OverviewGate>{(overview) => <GrowView overview={overview} />}</OverviewGate>;
}

function GrowView({ overview }: { overview: MiningOverview }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const p = overview.params;
  const n = overview.epoch.epoch;
  const nextHalving = (Math.floor(n / p.halving_epochs) + 1) * p.halving_epochs;
  const show = (text: string) => formatMoney(text, 4);
  return (
    <div className={cx(moneyStyles.moneyScreen, 'grow-page')}>
      <Calculator overview={overview} />
      <Formula title={t('mining.grow.epochTitle')} lines={[t('mining.grow.epochText', { duration: formatDuration(p.epoch_seconds, tag), epoch: n })]} />
      <Formula
        title={t('mining.grow.emissionTitle')}
        formula={`E(n) = ${show(p.emission_base)} × 0.5^⌊n ÷ ${p.halving_epochs}⌋`}
        lines={[
          t('mining.grow.emissionText', { base: show(p.emission_base), epochs: p.halving_epochs }),
          t('mining.grow.emissionNow', { epoch: n, amount: show(overview.epoch.emission), next: nextHalving }),
        ]}
      />
      <Formula title={t('mining.grow.shareTitle')} formula={t('mining.grow.shareFormula')} lines={[t('mining.grow.shareText'), t('mining.grow.payableText')]} />
      <Formula
        title={t('mining.grow.vestingTitle')}
        formula={t('mining.grow.vestingFormula', {
          immediate: formatBps(p.immediate_bps),
          locked: formatBps(10_000 - p.immediate_bps),
          epochs: p.vesting_epochs,
        })}
        lines={[t('mining.grow.vestingText', { epochs: p.vesting_epochs })]}
      />
      <Formula
        title={t('mining.grow.destroyTitle')}
        formula={t('mining.grow.destroyFormula', { power: formatPower(p.destroy_power_per_usdt), multiplier: p.destroy_budget_multiplier })}
        lines={[
          t('mining.grow.destroyText', { min: show(p.destroy_min_usdt), multiplier: p.destroy_budget_multiplier }),
          t('mining.grow.priceText', { price: formatMoney(overview.reference_price, 6) }),
        ]}
      />
      <Formula
        title={t('mining.grow.deviceTitle')}
        formula={t('mining.grow.deviceFormula', { percent: formatBps(p.uptime_min_bps) })}
        lines={[t('mining.grow.deviceText', { percent: formatBps(p.uptime_min_bps), seconds: p.heartbeat_seconds })]}
      />
      <Formula
        title={t('mining.grow.trialTitle')}
        formula={t('mining.grow.trialFormula', { power: formatPower(p.trial_power), epochs: p.trial_epochs })}
        lines={[t('mining.grow.trialText', { power: formatPower(p.trial_power), epochs: p.trial_epochs })]}
      />
      <NodeRewardSections incomeEstimate={overview.estimate_today} />
      <SavingsSection />
      <p className={moneyStyles.formHint}>{t('mining.grow.paramsNote')}</p>
    </div>
  );
}

function Formula({ title, formula, lines }: { title: string; formula?: string; lines: string[] }) {
  return (
    <section className={cx(styles.formula, 'card')}>
      <h2 className={styles.formulaTitle}>{title}</h2>
      {formula ? <p className={cx(styles.formulaMath, 'mono')}>{formula}</p> : null}
      {lines.map((line) => (
        <p key={line} className={styles.formulaText}>
          {line}
        </p>
      ))}
    </section>
  );
}

/** My power and the network's → one epoch's income, what is credited at once, locked, and released per epoch. */
function Calculator({ overview }: { overview: MiningOverview }) {
  const { t } = useTranslation();
  const [mineText, setMineText] = useState(overview.power);
  const [networkText, setNetworkText] = useState(overview.network_power);
  const params = economyParams(overview.params);
  const emission = unitsOrZero(overview.epoch.emission);
  const checks = checkCalculator(mineText, networkText);
  const estimate = checks.mine.ok && checks.network.ok ? estimateIncome(emission, checks.mine.centiPower, checks.network.centiPower, params) : null;
  const units = (value: bigint) => formatAmount(value, { fractionDigitsMax: amountDigitsShown });
  const price = unitsOrZero(overview.reference_price);
  return (
    <section className={cx(styles.calculator, 'card')} aria-labelledby="calculator-title">
      <h2 id="calculator-title" className={styles.formulaTitle}>
        {t('mining.grow.calculator')}
      </h2>
      <div className={styles.calculatorFields}>
        <PowerField id="calc-mine" label={t('mining.grow.myPower')} value={mineText} onChange={setMineText} check={checks.mine} />
        <PowerField id="calc-network" label={t('mining.grow.networkPower')} value={networkText} onChange={setNetworkText} check={checks.network} />
      </div>
      <p className={moneyStyles.formHint}>{t('mining.grow.emissionUsed', { epoch: overview.epoch.epoch, amount: formatMoney(overview.epoch.emission, 4) })}</p>
      <dl className={cx(styles.facts, moneyStyles.facts, styles.calculatorResult)} data-testid="calculator-result">
        <div className={cx(styles.factsRow, moneyStyles.factsRow, styles.factsRowReceive)}>
          <dt>{t('mining.grow.income')}</dt>
          <dd className="mono" data-testid="calc-income">
            {estimate ? `${units(estimate.income)} NADI` : '—'}
          </dd>
        </div>
        {price > 0n ? (
          <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
            <dt>{t('mining.grow.value')}</dt>
            <dd className="mono">{estimate ? `≈ ${formatAmount(usdtValueOf(estimate.income, price), { fractionDigitsMax: 2 })} USDT` : '—'}</dd>
          </div>
        ) : null}
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('mining.grow.immediate', { percent: formatBps(overview.params.immediate_bps) })}</dt>
          <dd className="mono" data-testid="calc-immediate">
            {estimate ? units(estimate.immediate) : '—'}
          </dd>
        </div>
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('mining.grow.locked', { percent: formatBps(10_000 - overview.params.immediate_bps) })}</dt>
          <dd className="mono" data-testid="calc-locked">
            {estimate ? units(estimate.locked) : '—'}
          </dd>
        </div>
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('mining.grow.release', { epochs: overview.params.vesting_epochs })}</dt>
          <dd className="mono" data-testid="calc-release">
            {estimate ? units(estimate.releasePerEpoch) : '—'}
          </dd>
        </div>
      </dl>
      <p className={moneyStyles.formHint}>{t('mining.grow.calculatorNote', { epochs: overview.params.vesting_epochs })}</p>
    </section>
  );
}

function PowerField({ id, label, value, onChange, check }: { id: string; label: string; value: string; onChange: (text: string) => void; check: PowerCheck }) {
  const { t } = useTranslation();
  return <CalculatorField id={id} label={label} unit="P" value={value} onChange={onChange} error={check.ok ? null : t(powerProblemKey(check.problem))} />;
}
