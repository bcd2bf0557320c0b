// The development demo (DEMO_MARKET, on in development): past days of candles seeded before the
// market opens, and the maker bot that keeps its book filled. Not part of production: main.ts
// starts it only when settings.isDemoMarketOn, and it drives the modules through their public
// surfaces (each module's index.ts) only, like any client of the market.
export { seedDemoHistory } from './history.ts';
export { startMakerBot } from './maker-bot.ts';
