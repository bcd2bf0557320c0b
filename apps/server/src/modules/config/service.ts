import type { AppConfig } from '@nadi/api/config';
import type { AppDeps } from '../../deps.ts';
import { readSetting, settingKeys } from './repo.ts';

export async function getAppConfig(deps: AppDeps): Promise<AppConfig> {
  const { settings } = deps;
  const stored = await readSetting(deps.db, settingKeys.nodeDeadline);
  const nodeDeadline = settings.nodeDeadline ?? (typeof stored === 'string' ? stored : null);
  if (!nodeDeadline) throw new Error('node deadline is neither configured nor seeded');
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
    },
    walletconnect_project_id: settings.walletConnectProjectId,
    dev_wallet: isDevelopment,
    trade_ws_path: '/ws/trade',
    notify_ws_path: '/ws',
  };
}
