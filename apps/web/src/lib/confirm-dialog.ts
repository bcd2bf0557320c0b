// A confirmation dialog from antd-mobile, loaded on first use like the toasts (lib/notify.ts).

export interface ConfirmOptions {
  content: string;
  confirmText: string;
  cancelText: string;
}

export async function confirmDialog(options: ConfirmOptions): Promise<boolean> {
  await import('./antd-setup.ts');
  const { default: Dialog } = await import('antd-mobile/es/components/dialog');
  return Dialog.confirm(options);
}
