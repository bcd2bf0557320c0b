import { translator } from '../translator.ts';
import { noticeTextFor } from '@nadi/api/notice';
import { deferredSocket } from '@nadi/envelope/deferred-socket';
import { socketUrlFor } from '../api-client.ts';
import { getLang } from '../langs.ts';
import { invalidateMining } from '../invalidate-mining.ts';
import { invalidatePledge } from '../invalidate-pledge.ts';
import { invalidateTeam } from '../invalidate-team.ts';
import { invalidateWallet } from '../invalidate-wallet.ts';
import { notify } from '../notify.ts';
import { queryClient } from '../query-client.ts';
import { session } from '../session.ts';
import type { SocketLike } from './socket-manager.ts';
import { AccountSocket, accountSocketUrl } from './account-socket.ts';

/**
 * The app's account socket for the signed-in user (loaded only once a session exists, so the
 * home route never downloads it). A balance push refreshes the wallet's balances and records, and
 * the mining, savings and team figures (a claim, a destroy, a join, a release or a device direct
 * reward moves the balance); a settled mining epoch refreshes the mining, savings and team queries
 * (interest accrued, positions released, team rewards paid) and the wallet; a new notice refreshes the notices and is announced.
 */
export function startAccountSocket(): () => void {
  const socket = new AccountSocket({
    url: () => {
      const token = session.getToken();
      return token ? accountSocketUrl(window.location, token) : null;
    },
    // The token travels sealed in the upgrade when the envelope is on (docs/envelope.md).
    createSocket: (url) => deferredSocket(socketUrlFor(url), (ready) => new WebSocket(ready) as unknown as SocketLike),
    onPush: (push) => {
      if (push.type === 'balance') {
        void invalidateWallet();
        void invalidateMining();
        void invalidatePledge();
        // A device direct reward is credited at a referral's purchase.
        void invalidateTeam();
        return;
      }
      if (push.type === 'mining_epoch') {
        // Income was credited or vested: mining figures and balances changed.
        void invalidateMining();
        void invalidatePledge();
        void invalidateWallet();
        // The settlement pays the team rewards (share, community and power level income).
        void invalidateTeam();
        return;
      }
      void queryClient.invalidateQueries({ queryKey: ['notice'] });
      const title = noticeTextFor(push.data.titles, getLang());
      if (title) notify(translator.t('notice.pushed', { title }));
    },
  });
  socket.start();
  return () => socket.stop();
}
