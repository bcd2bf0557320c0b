import i18next from 'i18next';
import { noticeTextFor } from '@nadi/api/notice';
import { getLang } from '../langs.ts';
import { invalidateWallet } from '../invalidate-wallet.ts';
import { notify } from '../notify.ts';
import { queryClient } from '../query-client.ts';
import { session } from '../session.ts';
import type { SocketLike } from './socket-manager.ts';
import { AccountSocket, accountSocketUrl } from './account-socket.ts';

/**
 * The app's account socket for the signed-in user (loaded only once a session exists, so the
 * home route never downloads it). A balance push refreshes the wallet's balances and records; a
 * new notice refreshes the notices and is announced; a settled mining epoch refreshes the mining
 * queries (`['mining', …]`) and the wallet.
 */
export function startAccountSocket(): () => void {
  const socket = new AccountSocket({
    url: () => {
      const token = session.getToken();
      return token ? accountSocketUrl(window.location, token) : null;
    },
    createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    onPush: (push) => {
      if (push.type === 'balance') {
        void invalidateWallet();
        return;
      }
      if (push.type === 'mining_epoch') {
        // Income was credited or vested: mining figures and balances changed.
        void queryClient.invalidateQueries({ queryKey: ['mining'] });
        void invalidateWallet();
        return;
      }
      void queryClient.invalidateQueries({ queryKey: ['notice'] });
      const title = noticeTextFor(push.data.titles, getLang());
      if (title) notify(i18next.t('notice.pushed', { title }));
    },
  });
  socket.start();
  return () => socket.stop();
}
