// The pledge module's public surface (docs/nodes-and-savings.md).
export { pledgeModule } from './routes.ts';
export { pledgeEpochsPaid, userPledgePositions } from './console-repo.ts';
export { interestClaimableByUserIn, interestOfEpoch, pledgedByUserIn, userInterestOfEpochs } from './transparency-repo.ts';
