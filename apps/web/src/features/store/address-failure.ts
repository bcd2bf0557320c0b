// docs/product.md section 8 names a message for each address load and action that fails: the address list and
// detail, fetching and setting the default, delete, add and edit. A refusal that says why (the
// limit of addresses, an address that is gone) says more than "could not delete", so its reason
// is shown instead.
import { isApiError } from '../../lib/api-client.ts';

export type AddressAction = 'list' | 'detail' | 'default' | 'setDefault' | 'delete' | 'add' | 'edit';

export const addressFailureKeys: Record<AddressAction, string> = {
  list: 'address.failed.list',
  detail: 'address.failed.detail',
  default: 'address.failed.default',
  setDefault: 'address.failed.setDefault',
  delete: 'address.failed.delete',
  add: 'address.failed.add',
  edit: 'address.failed.edit',
};

/** The server's translated reason when it refused with one, else null (the action's own message is shown). */
export function refusalReasonText(error: unknown): string | null {
  if (!isApiError(error)) return null;
  const { kind, reason } = error.failure;
  const hasReason = reason !== null && reason !== 'INTERNAL' && reason !== 'BAD_REQUEST';
  return hasReason && (kind === 'bad-request' || kind === 'server') ? error.displayMessage : null;
}

/** The toast after a failed address action. */
export function addressFailureText(error: unknown, action: AddressAction, translate: (key: string) => string): string {
  return refusalReasonText(error) ?? translate(addressFailureKeys[action]);
}
