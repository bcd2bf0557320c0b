import { useTranslation } from '../../../lib/translator.ts';
import type { StoreOrderDetail } from '@nadi/api/store';
import { confirmDialog } from '../../../lib/confirm-dialog.ts';
import { notify } from '../../../lib/notify.ts';
import { useCancelOrder } from '../api/cancel-order.ts';
import { useConfirmReceipt } from '../api/confirm-receipt.ts';
import { actionFailureText } from '../order-view.ts';

/**
 * Confirm receipt (docs/product.md sections 4 and 8): asks first, then completes the order with its success
 * message; the list and the order refresh (api/confirm-receipt.ts). Used by the list and the detail.
 */
export function useReceiptAction() {
  const { t } = useTranslation();
  const receipt = useConfirmReceipt();

  async function run(id: number, onDone?: (order: StoreOrderDetail) => void): Promise<void> {
    if (receipt.isPending) return;
    const isConfirmed = await confirmDialog({
      title: t('store.order.confirmReceiptTitle'),
      content: t('store.order.confirmReceiptText'),
      confirmText: t('store.order.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!isConfirmed) return;
    receipt.mutate(id, {
      onSuccess: (order) => {
        notify(t('store.order.receiptDone'), 'success');
        onDone?.(order);
      },
      onError: (error) => notify(actionFailureText(error, 'store.order.receiptFailed', t), 'fail'),
    });
  }

  return { run, isPending: receipt.isPending, pendingId: receipt.isPending ? receipt.variables : null };
}

/** Cancel an unpaid order, after asking (docs/product.md section 8: "cancel order" failure). */
export function useCancelAction() {
  const { t } = useTranslation();
  const cancel = useCancelOrder();

  async function run(id: number): Promise<void> {
    if (cancel.isPending) return;
    const isConfirmed = await confirmDialog({
      title: t('store.order.cancelTitle'),
      content: t('store.order.cancelText'),
      confirmText: t('store.order.cancelOk'),
      cancelText: t('store.order.keep'),
    });
    if (!isConfirmed) return;
    cancel.mutate(id, {
      onSuccess: () => notify(t('store.order.cancelDone'), 'success'),
      onError: (error) => notify(actionFailureText(error, 'store.order.cancelFailed', t), 'fail'),
    });
  }

  return { run, isPending: cancel.isPending };
}
