import { z } from 'zod/mini';
import { route } from './route.ts';
import { envelope } from './common.ts';
import { amountText } from './wallet.ts';

/** The user fields of docs/product.md section 3 that exist at this stage of the product. */
export const userInfo = z.object({
  id: z.int(),
  /** The user's own invite code. */
  code: z.string(),
  invite_code: z.string(),
  invite_link: z.string(),
  name: z.string(),
  wallet_address: z.string(),
  level: z.int(),
  /** Direct referral count. */
  zhi_num: z.int(),
  /** Everyone below this user in the referral tree. */
  team_num: z.int(),
  /** The user's own purchases (devices, nodes, destroy) in USDT, a decimal string (docs/economy.md, "Team and rewards"). */
  me_performance: amountText,
  /** The purchases of everyone below the user in the invite tree, in USDT (not the user's own). */
  team_performance: amountText,
  /**
   * The highest node tier the user holds (1–5, shown as T{node_level}, the "high-level agent" badge of
   * node owners); null without a node.
   */
  node_level: z.nullable(z.int()),
  referrer_code: z.nullable(z.string()),
  created_at: z.string(),
});
export type UserInfo = z.infer<typeof userInfo>;
export const userInfoResponse = envelope(userInfo);

export const userRoutes = {
  info: route({
    method: 'GET',
    path: '/api/v1/user/info',
    input: undefined,
    response: userInfoResponse,
    auth: true,
    summary: 'The signed-in user',
  }),
};
