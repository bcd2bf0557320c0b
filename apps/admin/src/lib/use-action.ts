import type { Route, RouteData } from '@nadi/api/route';
import { useCustomMutation, useInvalidate, usePermissions } from '@refinedev/core';
import type { OperatorRole } from '@nadi/api/route';
import { canCall } from './roles.ts';

/** The signed-in operator's console role (null while unknown or without one). */
export function useRole(): OperatorRole | null {
  const { data } = usePermissions<OperatorRole | null>({});
  return data ?? null;
}

/**
 * One screen action on a contract route: `allowed` says whether the role may call it (buttons are
 * hidden otherwise), `run` posts through the data provider, shows the server's message on failure
 * and refreshes the resource's lists on success; it answers the route's data (a batch's CSV, a settlement run's epochs).
 */
export function useAction<R extends Route>(route: R, resource: string, successMessage: string) {
  const role = useRole();
  const invalidate = useInvalidate();
  const { mutateAsync, mutation } = useCustomMutation();
  const run = async (values: Record<string, unknown>): Promise<RouteData<R>> => {
    const result = await mutateAsync({
      url: route.path,
      method: 'post',
      values,
      meta: { route },
      successNotification: () => ({ type: 'success', message: successMessage }),
      errorNotification: (error) => ({ type: 'error', message: 'The server refused', description: error?.message ?? 'Unknown error' }),
    });
    await invalidate({ resource, invalidates: ['list'] });
    return result.data as RouteData<R>;
  };
  return { allowed: canCall(role, route), run, isPending: mutation.isPending };
}

/**
 * A dialog's OK: the form's fields are checked (a refused field stays marked), then `send` runs; the
 * answer is true when it succeeded (the caller closes the dialog), false otherwise — a refusal of the
 * server has already been shown by the action's notification, so the dialog stays open to correct it.
 */
export async function submitForm<V>(form: { validateFields(): Promise<V> }, send: (values: V) => Promise<unknown>): Promise<boolean> {
  const values = await form.validateFields().catch(() => null);
  if (values === null) return false;
  return send(values).then(
    () => true,
    () => false,
  );
}
