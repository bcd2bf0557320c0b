// The device module's public surface: its plugin (heartbeats, activation, the operator's device
// API) and the default model the development seed adds.
export { deviceModule } from './routes.ts';
export { seedDefaultDeviceModel, defaultDeviceModel } from './seed.ts';
