import type { AppConfig } from '@nadi/api/config';
import type { AppDeps } from '../../deps.ts';
import { readSetting, settingKeys } from './repo.ts';

/** The node deadline the home countdown shows: NODE_DEADLINE when configured, else the seeded one. */
export async function nodeDeadlineText(deps: Pick<AppDeps, 'settings' | 'db'>): Promise<string> {
  const stored = deps.settings.nodeDeadline ?? (await readSetting(deps.db, settingKeys.nodeDeadline));
  if (typeof stored !== 'string') throw new Error('node deadline is neither configured nor seeded');
  return stored;
}

export async function getAppConfig(deps: AppDeps): Promise<AppConfig> {
  const { settings } = deps;
  const nodeDeadline = await nodeDeadlineText(deps);
  const isDevelopment = settings.env === 'development';
  return {
    title: settings.title,
    environment: settings.env,
    sign_message: settings.signMessage,
    node_deadline: nodeDeadline,
    chain: {
      id: settings.chainId,
      name: settings.chainName,
      // In development this is the server's /rpc proxy to the local chain.
      rpc_url: settings.publicRpcUrl,
      explorer_url: settings.explorerUrl,
      nadi_address: settings.nadiAddress,
      usdt_address: settings.usdtAddress,
      proof_publisher_address: settings.proofPublisherAddress,
    },
    walletconnect_project_id: settings.walletConnectProjectId,
    dev_wallet: isDevelopment,
    trade_ws_path: '/ws/trade',
    notify_ws_path: '/ws',
    encryption: {
      enabled: settings.isEncryptionOn,
      keys: (deps.envelopeKeys ?? []).map((k) => ({ kid: k.kid, public_key: k.publicKey })),
    },
  };
}
