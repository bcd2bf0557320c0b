import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import type { RechargeAddressData, RechargeRecord } from '@nadi/api/onchain';
import { AmountField } from '../../../components/amount-field.tsx';
import { Icon } from '../../../components/icon.tsx';
import { OutcomePanel, StepList } from '../../../components/payment/stepper-parts.tsx';
import { TxHash } from '../../../components/tx-hash.tsx';
import { useAmountInput } from '../../../lib/amount/use-amount-input.ts';
import { shortAddress } from '../../../lib/format.ts';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';
import type { Address, Hash } from '../../../lib/payment/payment-flow.ts';
import type { TokenTransfer, TransferOutcome, TransferStep } from '../../../lib/payment/transfer-flow.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { session } from '../../../lib/session.ts';
import { rechargeQueryKey } from '../api/get-recharge-address.ts';
import { useRechargeList } from '../api/get-recharge-list.ts';
import { useWalletTokenBalance } from '../api/get-wallet-balance.ts';
import { canRetrySend, sendAmountMessage, sendOutcomeMessage, sendStepKey } from '../send-form.ts';
import { useSendFromWallet } from '../use-send-from-wallet.ts';
import { DepositItem } from './deposit-item.tsx';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './recharge.module.css';

/** The steps where the wallet asks the user to confirm something. */
const walletSteps: readonly TransferStep[] = ['connect', 'network', 'transfer'];

/**
 * "Send from my wallet" on /recharge (loaded lazily with wagmi's callers): an amount checked
 * against the wallet's on-chain NADI, then the payment stepper's steps for an ERC-20 transfer to
 * the user's own deposit address; below, the deposits still confirming (the list's own polling).
 */
export default function RechargeSend({ data }: { data: RechargeAddressData }) {
  const { t } = useTranslation();
  const owner = session.get().walletAddress;
  const balance = useWalletTokenBalance(data.token_address, owner);
  const walletUnits = balance.data ?? null;
  const amount = useAmountInput(walletUnits);
  const [sentHashes, setSentHashes] = useState<Hash[]>([]);
  const [lastTransfer, setLastTransfer] = useState<TokenTransfer | null>(null);
  const { state, send } = useSendFromWallet(onOutcome);
  const message = amount.problem ? sendAmountMessage(amount.problem, walletUnits, data.asset) : null;

  function onOutcome(outcome: TransferOutcome) {
    // Whatever happened, the wallet's balance may have moved.
    void queryClient.invalidateQueries({ queryKey: [rechargeQueryKey, 'walletBalance'] });
    if (outcome.kind !== 'success' || !outcome.txHash) return;
    const txHash = outcome.txHash;
    setSentHashes((hashes) => [txHash, ...hashes]);
    amount.setText('');
    void queryClient.invalidateQueries({ queryKey: [rechargeQueryKey, 'list'] });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const check = amount.trySubmit();
    if (!check.ok || state.isRunning) return;
    const transfer: TokenTransfer = {
      chainId: data.chain_id,
      token: data.token_address as Address,
      to: data.address as Address,
      amount: check.text,
      asset: data.asset,
    };
    setLastTransfer(transfer);
    void send(transfer);
  }

  const hasStarted = state.current !== null || state.isRunning;
  const outcome = state.outcome;
  return (
    <>
      <section className={cx(styles.send, 'card')} aria-labelledby="send-title" data-testid="recharge-send">
        <header>
          <h2 id="send-title" className={styles.sendTitle}>
            {t('recharge.send.title')}
          </h2>
          <p className={moneyStyles.formHint}>{t('recharge.send.intro', { asset: data.asset, network: data.chain_name })}</p>
        </header>
        <form className={styles.sendForm} onSubmit={submit} noValidate>
          <AmountField
            id="recharge-amount"
            testId="recharge-amount"
            value={amount.text}
            onChange={amount.setText}
            asset={data.asset}
            availableUnits={walletUnits}
            availableKey="recharge.send.balance"
            availableNote={<BalanceNote balance={balance} hasWallet={owner !== null} />}
            error={message ? t(message.key, message.params) : null}
            isDisabled={state.isRunning}
          />
          {owner ? <p className={cx(moneyStyles.formHint, styles.sendFrom)}>{t('recharge.send.from', { address: shortAddress(owner) })}</p> : null}
          <button type="submit" className="btn btn--block" data-testid="recharge-send-submit" disabled={state.isRunning}>
            {state.isRunning ? t('recharge.send.sending') : t('recharge.send.submit')}
          </button>
        </form>
        {hasStarted ? <StepList state={state} labelKey={sendStepKey} network={data.chain_name} walletSteps={walletSteps} /> : null}
        {outcome ? <SendOutcome outcome={outcome} data={data} /> : null}
        {canRetrySend(state) && lastTransfer ? (
          <button type="button" className="btn btn--block btn--ghost" data-testid="payment-retry" onClick={() => void send(lastTransfer)}>
            <Icon name="refresh" size={18} />
            {t('payment.retry')}
          </button>
        ) : null}
      </section>
      <DepositsInProgress sentHashes={sentHashes} />
    </>
  );
}

function BalanceNote({ balance, hasWallet }: { balance: ReturnType<typeof useWalletTokenBalance>; hasWallet: boolean }) {
  const { t } = useTranslation();
  if (!hasWallet) return null;
  if (balance.isError) {
    return (
      <span className={styles.balanceNote} role="alert" data-testid="recharge-balance-error">
        {t('recharge.send.balanceFailed')}
        <button type="button" className={styles.balanceRetry} onClick={() => void balance.refetch()}>
          {t('common.retry')}
        </button>
      </span>
    );
  }
  return (
    <span className={styles.balanceNote} data-testid="recharge-balance-loading">
      <span className="spinner spinner--small" aria-hidden="true" />
      {t('recharge.send.balanceLoading')}
    </span>
  );
}

function SendOutcome({ outcome, data }: { outcome: TransferOutcome; data: RechargeAddressData }) {
  const message = sendOutcomeMessage(outcome);
  return (
    <OutcomePanel
      kind={outcome.kind}
      message={message}
      params={{ ...message.params, network: data.chain_name, asset: data.asset, blocks: data.confirmations_required }}
      txHash={outcome.kind === 'success' ? outcome.txHash : null}
    />
  );
}

/**
 * The deposits still confirming, and those sent from this screen: sent ones show at once (before the
 * server's watcher has seen them), then as the list reports them, pending n/3 until credited.
 */
function DepositsInProgress({ sentHashes }: { sentHashes: Hash[] }) {
  const { t } = useTranslation();
  const list = useRechargeList();
  const records = list.data?.pages.flatMap((page) => page.list) ?? [];
  const sent = new Set(sentHashes.map((hash) => hash.toLowerCase()));
  const shown = records.filter((record) => record.status === 'pending' || sent.has(record.tx_hash.toLowerCase()));
  const unseen = sentHashes.filter((hash) => !records.some((record) => record.tx_hash.toLowerCase() === hash.toLowerCase()));
  useCreditedRefresh(records, sent);
  if (shown.length === 0 && unseen.length === 0) return null;
  return (
    <section className={moneyStyles.records} aria-labelledby="in-progress-title" data-testid="recharge-in-progress">
      <h2 id="in-progress-title" className={styles.sendTitle}>
        {t('recharge.send.inProgress')}
      </h2>
      {unseen.map((hash) => (
        <article key={hash} className={cx(moneyStyles.record, 'card')} data-testid="recharge-sent">
          <div className={moneyStyles.recordMain}>
            <h3 className={moneyStyles.recordType}>{t('recharge.recordTitle')}</h3>
            <TxHash hash={hash} />
          </div>
          <div className={moneyStyles.recordSide}>
            <span className={cx(moneyStyles.statusChip, variant(moneyStyles, 'status-chip--pending'))}>{t('recharge.send.unseen')}</span>
          </div>
        </article>
      ))}
      {shown.map((record) => (
        <DepositItem key={record.id} deposit={record} />
      ))}
    </section>
  );
}

/** When a deposit sent from here is credited, the fund balances shown elsewhere are out of date. */
function useCreditedRefresh(records: RechargeRecord[], sent: Set<string>) {
  const credited = records.filter((record) => record.status === 'credited' && sent.has(record.tx_hash.toLowerCase())).length;
  useEffect(() => {
    if (credited > 0) void invalidateWallet();
  }, [credited]);
}
