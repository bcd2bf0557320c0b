// Toasts come from antd-mobile, loaded on first use: its animation library is too heavy for the
// home route's first download, and the first toast can wait a few milliseconds for it.

import type Toast from 'antd-mobile/es/components/toast';

type Icon = 'success' | 'fail' | 'loading';

let toastModule: Promise<{ default: typeof Toast }> | null = null;

function loadToast() {
  toastModule ??= import('./antd-setup.ts').then(() => import('antd-mobile/es/components/toast'));
  return toastModule;
}

export function notify(message: string, icon?: Icon): void {
  if (!message) return;
  void loadToast().then(({ default: toast }) => {
    toast.show({ content: message, icon, duration: icon === 'loading' ? 0 : 2000, maskClickable: true });
  });
}

export function clearNotifications(): void {
  if (toastModule) void toastModule.then(({ default: toast }) => toast.clear());
}
