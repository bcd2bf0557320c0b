import type { DepositStatus } from '@nadi/api/onchain';

export interface DepositStatusView {
  key: string;
  params: { done: number; required: number };
  tone: 'pending' | 'credited' | 'orphaned';
}

/** A deposit's status for its record: confirmations n/3 while pending (never above the requirement). */
export function depositStatusView(record: { status: DepositStatus; confirmations: number; confirmations_required: number }): DepositStatusView {
  const required = record.confirmations_required;
  return {
    key: `recharge.status.${record.status}`,
    params: { done: Math.min(record.confirmations, required), required },
    tone: record.status,
  };
}
