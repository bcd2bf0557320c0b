// The device module's public surface: its plugin (heartbeats, activation, the operator's device
// API), the shape of a device model (the development seed's, db/seed/device-models.ts), and how
// serials and activation codes are compared (the store checks the devices and cards an operator ships).
export { deviceModule } from './routes.ts';
export type { ModelValues } from './repo.ts';
export { hashCode, normalizeCode } from './codes.ts';
export { normalizeSerial } from './heartbeat.ts';
export { deviceFacts, type DeviceFacts } from './repo.ts';
export { devicesBySerialOrder, lockDevicesToShip, modelIdByCode, modelsByIds, type DeviceToShip } from './repo.ts';
