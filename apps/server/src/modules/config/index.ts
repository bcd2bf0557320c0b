// The config module's public surface: the plugin and the operator settings other modules read.
export { configModule } from './routes.ts';
export { nodeDeadlineText } from './service.ts';
export { incrementCounterSetting, insertSettingIfAbsent, readSetting, settingKeys } from './repo.ts';
