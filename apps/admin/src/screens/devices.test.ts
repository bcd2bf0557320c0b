import { deviceRoutes } from '@nadi/api/mining';
import type { Route } from '@nadi/api/route';
import { describe, expect, it } from 'vitest';
import { callRoute, type Fetch } from '../lib/api.ts';
import { canCall } from '../lib/roles.ts';
import { actions, createDataProvider, resources } from '../providers/data-provider.ts';
import { bpsPercent, parseDeviceLines, parseSerials } from './device-input.ts';

const key = (digit: string) => digit.repeat(64);

describe('the device screens input', () => {
  it('reads "serial,public_key" lines like the contract: header and blanks skipped, bad and repeated lines named', () => {
    const text = [
      'serial,public_key',
      `NB-0001,${key('a')}`,
      '',
      `NB-0002;${key('B')}`,
      `NB-0003\t${key('c')}`,
      `nb-0001,${key('d')}`,
      `NB-0004,${key('a')}`,
      'x1,abc',
      `NB 0005 ${key('e')} extra`,
      `NB-0006,${key('g')}`,
    ].join('\n');
    const { items, errors } = parseDeviceLines(text);
    expect(items).toEqual([
      { serial: 'NB-0001', public_key: key('a') },
      { serial: 'NB-0002', public_key: key('B') },
      { serial: 'NB-0003', public_key: key('c') },
    ]);
    expect(errors).toEqual([
      'line 6: serial nb-0001 is repeated',
      'line 7: the public key is repeated',
      'line 8: serial "x1" is not 4–64 letters, digits or dashes',
      'line 9: expected "serial,public_key"',
      'line 10: the public key is not 64 hex digits',
    ]);
  });

  it('reads pasted serials separated by lines, commas or spaces, and refuses more than a batch holds', () => {
    expect(parseSerials('NB-0001, NB-0002\nNB-0003 nb-0002 ab')).toEqual({
      items: ['NB-0001', 'NB-0002', 'NB-0003'],
      errors: ['nb-0002 is repeated', '"ab" is not a serial (4–64 letters, digits or dashes)'],
    });
    const many = Array.from({ length: 1001 }, (_, i) => `S-${String(i).padStart(5, '0')}`).join('\n');
    expect(parseSerials(many).errors).toEqual(['at most 1000 serials in one batch (1001 given)']);
  });

  it('shows uptime basis points as a percentage', () => {
    expect(bpsPercent(10_000)).toBe('100.00 %');
    expect(bpsPercent(9_583)).toBe('95.83 %');
    expect(bpsPercent(0)).toBe('0.00 %');
  });
});

describe('the device resources', () => {
  it('list devices with model, status and code filters, the models unpaged, the batches paged', async () => {
    const calls: string[] = [];
    const answers: unknown[] = [
      { list: [], total: 0, page: 1, page_size: 20 },
      [{ id: 1, code: 'NADI-BOX-1' }],
      { list: [{ id: 3 }], total: 1, page: 1, page_size: 20 },
    ];
    const fetchImpl: Fetch = async (url) => {
      calls.push(url);
      return new Response(JSON.stringify({ code: 200, msg: 'ok', data: answers[calls.length - 1] }), { status: 200 });
    };
    const provider = createDataProvider(((route: Route, input?: unknown) =>
      callRoute(route, input, { token: 't', fetchImpl, envelope: null })) as typeof callRoute);
    await provider.getList({
      resource: 'devices',
      pagination: { currentPage: 1, pageSize: 20 },
      filters: [
        { field: 'model', operator: 'eq', value: 'NADI-BOX-1' },
        { field: 'status', operator: 'eq', value: 'unbound' },
        { field: 'code', operator: 'eq', value: 'without' },
      ],
    });
    expect(calls[0]).toBe('/api/v1/operator/devices?page=1&page_size=20&model=NADI-BOX-1&status=unbound&code=without');
    expect(await provider.getList({ resource: 'device-models' })).toEqual({ data: [{ id: 1, code: 'NADI-BOX-1' }], total: 1 });
    expect(calls[1]).toBe('/api/v1/operator/device/models');
    expect(await provider.getList({ resource: 'activation-batches', pagination: { currentPage: 1, pageSize: 20 } })).toEqual({ data: [{ id: 3 }], total: 1 });
    expect(calls[2]).toBe('/api/v1/operator/activation/batches?page=1&page_size=20');
  });

  it('offers each device action to the roles the contract names', () => {
    expect(resources.devices.list).toBe(deviceRoutes.operatorDevices);
    expect(actions.saveDeviceModel).toBe(deviceRoutes.operatorSaveModel);
    expect(canCall('viewer', actions.revokeCode)).toBe(false);
    expect(canCall('operator', actions.revokeCode)).toBe(true);
    expect(canCall('operator', actions.registerDevices)).toBe(true);
    expect(canCall('operator', actions.generateCodes)).toBe(true);
    expect(canCall('operator', actions.saveDeviceModel)).toBe(false);
    expect(canCall('admin', actions.saveDeviceModel)).toBe(true);
  });
});
