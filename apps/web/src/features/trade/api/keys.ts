/** Every query of this feature starts with this key; the orders lists with `ordersKey`. */
export const tradeQueryKey = 'trade';
export const ordersKey = [tradeQueryKey, 'orders'] as const;
/** While the socket is not connected, market data is read again this often so the screen stays alive. */
export const pollingMs = 3_000;
