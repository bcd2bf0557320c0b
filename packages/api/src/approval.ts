import { z } from 'zod/mini';

// A four-eyes approval as the API shows it (docs/operator.md): the operator console lists and decides
// them (operator.ts), and an economy change proposed from the mining contract answers with one.

export const approvalKinds = ['economy_param', 'withdrawal'] as const;
export type ApprovalKind = (typeof approvalKinds)[number];
export const approvalStatuses = ['pending', 'approved', 'rejected'] as const;
export const approvalItem = z.object({
  id: z.int(),
  kind: z.enum(approvalKinds),
  payload: z.unknown(),
  summary: z.string(),
  status: z.enum(approvalStatuses),
  requested_by: z.int(),
  requested_by_address: z.string(),
  requested_at: z.string(),
  reason: z.nullable(z.string()),
  decided_by: z.nullable(z.int()),
  decided_at: z.nullable(z.string()),
  decision_reason: z.nullable(z.string()),
});
export type ApprovalItem = z.infer<typeof approvalItem>;
