import type { PageQuery } from '@nadi/api/common';
import { incomeRecordTypes, type Asset, type FundRecord, type RecordType, type TransferData, type UserAccountKind } from '@nadi/api/wallet';
import { toDecimalString } from '@nadi/money/money';
import type { Db } from '../../db/client.ts';
import { listRecords, listTransferFlows, recordTotals, type RecordRow } from '../ledger/index.ts';

function toRecord(row: RecordRow): FundRecord {
  return {
    id: Number(row.id),
    type: row.type,
    asset: row.asset,
    account: row.kind,
    amount: toDecimalString(BigInt(row.amount)),
    balance_after: toDecimalString(BigInt(row.balance_after)),
    created_at: new Date(row.created_at).toISOString(),
  };
}

export async function moneyLog(db: Db, userId: number, query: PageQuery & { type?: RecordType; asset?: Asset; account?: UserAccountKind }) {
  const filter = { userId, ...(query.type ? { types: [query.type] } : {}), asset: query.asset, account: query.account };
  const { rows, total } = await listRecords(db, filter, (query.page - 1) * query.page_size, query.page_size);
  return { list: rows.map(toRecord), total, page: query.page, page_size: query.page_size };
}

export async function incomeList(db: Db, userId: number, query: PageQuery & { type?: (typeof incomeRecordTypes)[number]; asset?: Asset }) {
  const filter = { userId, types: query.type ? [query.type] : incomeRecordTypes, asset: query.asset, isCreditOnly: true };
  const [{ rows, total }, totals] = await Promise.all([listRecords(db, filter, (query.page - 1) * query.page_size, query.page_size), recordTotals(db, filter)]);
  const decimalTotals = totals.map((x) => ({ asset: x.asset, amount: toDecimalString(BigInt(x.amount)) }));
  return { list: rows.map(toRecord), total, page: query.page, page_size: query.page_size, totals: decimalTotals };
}

export async function transferList(db: Db, userId: number, query: PageQuery & { asset?: Asset }) {
  const { rows, total } = await listTransferFlows(db, userId, query.asset, (query.page - 1) * query.page_size, query.page_size);
  const list: TransferData[] = rows.map((r) => ({
    id: Number(r.id),
    asset: r.asset,
    amount: toDecimalString(BigInt(r.amount)),
    from: r.from,
    to: r.to,
    created_at: new Date(r.created_at).toISOString(),
  }));
  return { list, total, page: query.page, page_size: query.page_size };
}
