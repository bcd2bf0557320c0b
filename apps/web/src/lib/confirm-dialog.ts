// A confirmation dialog from antd-mobile, loaded on first use like the toasts (lib/notify.ts).
import type { ReactNode } from 'react';

export interface ConfirmOptions {
  title?: string;
  /** A sentence, or the facts to confirm (rendered outside the app's providers: plain, translated nodes). */
  content: ReactNode;
  confirmText: string;
  cancelText: string;
}

export async function confirmDialog(options: ConfirmOptions): Promise<boolean> {
  await import('./antd-setup.ts');
  const { default: Dialog } = await import('antd-mobile/es/components/dialog');
  return Dialog.confirm(options);
}
