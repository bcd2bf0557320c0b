// The market module's public surface: the plugin, the socket limits the app's websocket plugin
// needs, its setting key for the seed, and what the development demo (src/demo/: past candles and
// the maker bot) and the benches drive it with: the single writer, the book's units and order reads.
export { marketModule, type MarketModuleOptions } from './routes.ts';
export { tradeSocketLimits } from './trade-socket.ts';
export { marketSettingKey, marketSymbol, lotsToQuantity, ticksToPrice, type MarketConfig } from './params.ts';
export { balanceOfTrade, openStatuses, pageOrders, recentTrades, timeWeightedPrice, type OrderRow } from './repo.ts';
export { MarketService, type WriterCounters } from './service.ts';
export { bookConflationMs, TradeStreams } from './trade-streams.ts';
