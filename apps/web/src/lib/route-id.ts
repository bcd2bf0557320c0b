// Ids in the route (`/store/orders/:id`, `/pledge/detail/:id`): shared by the features that open one object.
/** Order ids are bigint serials on the server (contract: up to 2^53 − 1); product ids are 32-bit. */
export const orderIdMax = Number.MAX_SAFE_INTEGER;
export const productIdMax = 2 ** 31 - 1;

/**
 * An id from the route (`/store/orders/:id`), or null when it is missing or not one: the screen
 * says so (docs/product.md section 8: "order data or id missing") instead of asking the server.
 */
export function parseRouteId(param: string | undefined, max: number): number | null {
  if (!param || !/^[1-9][0-9]{0,15}$/.test(param)) return null;
  const id = Number(param);
  return Number.isSafeInteger(id) && id <= max ? id : null;
}
