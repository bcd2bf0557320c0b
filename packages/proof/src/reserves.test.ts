import { describe, expect, it } from 'vitest';
import { messageNames, parseReserveMessage, platformOf, reserveMessage } from './reserves.ts';

const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('the reserve ownership message', () => {
  it('names the platform (the public address’s host) and the address, and reads back what it names', () => {
    expect(platformOf('https://app.nadi.example/')).toBe('app.nadi.example');
    expect(platformOf('http://localhost:8080')).toBe('localhost:8080');
    const message = reserveMessage({ platform: 'app.nadi.example', address });
    expect(message.split('\n').slice(0, 3)).toEqual(['NADI proof of reserves', 'Platform: app.nadi.example', `Address: ${address}`]);
    expect(parseReserveMessage(message)).toEqual({ platform: 'app.nadi.example', address });
    expect(messageNames(message, { platform: 'app.nadi.example', address: address.toLowerCase() })).toBe(true);
  });

  it('does not name another platform or address, nor a message that says either twice or not at all', () => {
    const message = reserveMessage({ platform: 'app.nadi.example', address });
    expect(messageNames(message, { platform: 'evil.example', address })).toBe(false);
    expect(messageNames(message, { platform: 'app.nadi.example', address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' })).toBe(false);
    expect(parseReserveMessage(`${message}\nAddress: 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC`)).toBeNull();
    expect(parseReserveMessage('I own 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 on app.nadi.example')).toBeNull();
    expect(parseReserveMessage('Platform: app.nadi.example\r\nAddress: 0xabc')).toEqual({ platform: 'app.nadi.example', address: '0xabc' });
  });
});
