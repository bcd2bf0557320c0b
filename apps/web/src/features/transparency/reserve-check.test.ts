import { describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { ReserveAddress } from '@nadi/api/transparency';
import { reserveMessage } from '@nadi/proof/reserves';
import { checkReserve } from './reserve-check.ts';

const platform = 'app.nadi.example';

// Fresh keys, real EIP-191 signatures, checked as the browser does.
const hot = privateKeyToAccount(generatePrivateKey());
const owner = privateKeyToAccount(generatePrivateKey());

async function reserve(overrides: Partial<ReserveAddress> & { signedBy?: typeof hot } = {}): Promise<ReserveAddress> {
  const address = overrides.address ?? hot.address;
  const message = overrides.message ?? reserveMessage({ platform, address });
  const signature = await (overrides.signedBy ?? hot).signMessage({ message });
  return {
    address,
    role: 'hot_wallet',
    label: 'Hot wallet',
    signer: (overrides.signedBy ?? hot).address,
    balances: { NADI: '1', USDT: '2' },
    message,
    signature,
    ...Object.fromEntries(Object.entries(overrides).filter(([key]) => key !== 'signedBy')),
  } as ReserveAddress;
}

describe('a reserve address’s ownership signature, checked in the browser', () => {
  it('is verified when the address signed a message naming itself', async () => {
    expect(await checkReserve(await reserve(), platform)).toBe('verified');
  });

  it('accepts the payment gateway, a contract, vouched for by its owner', async () => {
    const gateway = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
    expect(await checkReserve(await reserve({ address: gateway, role: 'payment_gateway', signedBy: owner }), platform)).toBe('verified');
  });

  it('refuses another signer for an address that can sign itself', async () => {
    expect(await checkReserve(await reserve({ signedBy: owner }), platform)).toBe('wrong_signer');
  });

  it('refuses a message that names another address, or another platform', async () => {
    const other = '0x0000000000000000000000000000000000000001';
    expect(await checkReserve(await reserve({ message: reserveMessage({ platform, address: other }) }), platform)).toBe('wrong_message');
    expect(await checkReserve(await reserve(), 'evil.example')).toBe('wrong_message');
  });

  it('refuses a signature of another message, or no signature at all', async () => {
    const good = await reserve();
    const other = await hot.signMessage({ message: `${good.message} (old)` });
    expect(await checkReserve({ ...good, signature: other }, platform)).toBe('bad_signature');
    expect(await checkReserve({ ...good, signature: '0x1234' }, platform)).toBe('bad_signature');
  });
});
