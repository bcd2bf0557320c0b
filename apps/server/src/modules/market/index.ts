// The market module's public surface: the plugin, the socket limits the app's websocket plugin
// needs, its setting key for the seed, and the development demo (history and maker bot).
export { marketModule, type MarketModuleOptions } from './routes.ts';
export { tradeSocketLimits } from './trade-socket.ts';
export { marketSettingKey } from './params.ts';
export { seedDemoHistory } from './demo/history.ts';
export { startMakerBot } from './demo/maker-bot.ts';
export { timeWeightedPrice } from './repo.ts';
