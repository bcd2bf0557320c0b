import { z } from 'zod';

// A four-eyes approval as the API shows it (docs/operator.md): the operator console lists and decides
// them (operator.ts), and an economy change proposed from the mining contract answers with one.

export const approvalKinds = ['economy_param', 'withdrawal'] as const;
export type ApprovalKind = (typeof approvalKinds)[number];
export const approvalStatuses = ['pending', 'approved', 'rejected'] as const;
export const approvalItem = z.object({
  id: z.number().int(),
  kind: z.enum(approvalKinds),
  payload: z.unknown(),
  summary: z.string(),
  status: z.enum(approvalStatuses),
  requested_by: z.number().int(),
  requested_by_address: z.string(),
  requested_at: z.string(),
  reason: z.string().nullable(),
  decided_by: z.number().int().nullable(),
  decided_at: z.string().nullable(),
  decision_reason: z.string().nullable(),
});
export type ApprovalItem = z.infer<typeof approvalItem>;
