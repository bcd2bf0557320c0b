import { describe, expect, it } from 'vitest';
import { addressGroups, checksummed } from './address.ts';

describe('checksummed', () => {
  it('writes an address EIP-55 checksummed, whatever case it came in', () => {
    expect(checksummed('0x70997970c51812dc3a010c7d01b50e0d17dc79c8')).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(checksummed('0x70997970C51812DC3A010C7D01B50E0D17DC79C8')).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
  });

  it('leaves what is not an address as it came', () => {
    expect(checksummed('not an address')).toBe('not an address');
  });
});

describe('addressGroups', () => {
  it('splits an address into ten groups of four, 0x with the first, which join back into it', () => {
    const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const groups = addressGroups(address);
    expect(groups).toHaveLength(10);
    expect(groups[0]).toBe('0x7099');
    expect(groups.slice(1).every((group) => group.length === 4)).toBe(true);
    expect(groups.join('')).toBe(address);
  });
});
