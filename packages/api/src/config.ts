import { z } from 'zod/mini';
import { route } from './route.ts';
import { envelope } from './common.ts';

export const environments = ['development', 'staging', 'production'] as const;
export type Environment = (typeof environments)[number];

/** Public configuration the web app reads at start (`GET /api/v1/common/config`). */
export const appConfig = z.object({
  title: z.string(),
  environment: z.enum(environments),
  /** The welcome line used as the statement of the sign-in message. */
  sign_message: z.string(),
  /** When node sales close; the home page counts down to it. */
  node_deadline: z.string(),
  chain: z.object({
    id: z.int(),
    name: z.string(),
    /** Public JSON-RPC endpoint the browser may use for reads (a local proxy in development). */
    rpc_url: z.string(),
    explorer_url: z.nullable(z.string()),
    nadi_address: z.nullable(z.string()),
    usdt_address: z.nullable(z.string()),
    /** The ProofPublisher contract where snapshots' roots are published (docs/transparency.md); null: none. */
    proof_publisher_address: z._default(z.nullable(z.string()), null),
  }),
  walletconnect_project_id: z.nullable(z.string()),
  /** True only in development: the demo wallet backed by the local chain's test accounts. */
  dev_wallet: z.boolean(),
  trade_ws_path: z.string(),
  notify_ws_path: z.string(),
  /**
   * The request envelope (docs/envelope.md): when enabled, every other API request is sealed with
   * HPKE to the first key (the others are still accepted during a rotation).
   */
  encryption: z.object({
    enabled: z.boolean(),
    keys: z.array(z.object({ kid: z.string(), public_key: z.string() })),
  }),
});
export type AppConfig = z.infer<typeof appConfig>;
export const appConfigResponse = envelope(appConfig);

export const configRoutes = {
  config: route({
    method: 'GET',
    path: '/api/v1/common/config',
    input: undefined,
    response: appConfigResponse,
    auth: false,
    summary: 'Public configuration for the web app',
    limitClass: 'background',
  }),
};
