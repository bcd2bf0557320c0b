// The part of the ProofPublisher contract's ABI the browser reads (packages/chain, helper H2's
// ProofPublisher.sol): its `publication` view and its `Published` event.
// TODO(i32): import proofPublisherAbi from @nadi/chain/artifacts once the contract is on main.
export const publisherAbi = [
  {
    type: 'function',
    name: 'publication',
    stateMutability: 'view',
    inputs: [{ name: 'snapshotId', type: 'uint256', internalType: 'uint256' }],
    outputs: [
      {
        name: '',
        type: 'tuple',
        internalType: 'struct ProofPublisher.Publication',
        components: [
          { name: 'epoch', type: 'uint256', internalType: 'uint256' },
          { name: 'blockNumber', type: 'uint256', internalType: 'uint256' },
          { name: 'liabilitiesRoot', type: 'bytes32', internalType: 'bytes32' },
          { name: 'liabilitiesNadi', type: 'uint256', internalType: 'uint256' },
          { name: 'liabilitiesUsdt', type: 'uint256', internalType: 'uint256' },
          { name: 'rewardsRoot', type: 'bytes32', internalType: 'bytes32' },
          { name: 'rewardsTotal', type: 'uint256', internalType: 'uint256' },
          { name: 'publishedBlock', type: 'uint256', internalType: 'uint256' },
          { name: 'publishedAt', type: 'uint256', internalType: 'uint256' },
        ],
      },
    ],
  },
  {
    type: 'event',
    name: 'Published',
    anonymous: false,
    inputs: [
      { name: 'snapshotId', type: 'uint256', indexed: true, internalType: 'uint256' },
      { name: 'epoch', type: 'uint256', indexed: true, internalType: 'uint256' },
      { name: 'blockNumber', type: 'uint256', indexed: false, internalType: 'uint256' },
      { name: 'liabilitiesRoot', type: 'bytes32', indexed: false, internalType: 'bytes32' },
      { name: 'liabilitiesNadi', type: 'uint256', indexed: false, internalType: 'uint256' },
      { name: 'liabilitiesUsdt', type: 'uint256', indexed: false, internalType: 'uint256' },
      { name: 'rewardsRoot', type: 'bytes32', indexed: false, internalType: 'bytes32' },
      { name: 'rewardsTotal', type: 'uint256', indexed: false, internalType: 'uint256' },
    ],
  },
] as const;
