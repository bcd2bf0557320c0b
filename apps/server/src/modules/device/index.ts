// The device module's public surface: its plugin (heartbeats, activation, the operator's device
// API), the models the development seed adds, and how serials and activation codes are compared
// (the store checks the devices and cards an operator ships).
export { deviceModule } from './routes.ts';
export { seedDefaultDeviceModel, seedDeviceModels, defaultDeviceModel, storeDeviceModels } from './seed.ts';
export { hashCode, normalizeCode } from './codes.ts';
export { normalizeSerial } from './heartbeat.ts';
export { deviceFacts, type DeviceFacts } from './repo.ts';
export { devicesBySerialOrder, lockDevicesToShip, modelIdByCode, modelsByIds, type DeviceToShip } from './repo.ts';
