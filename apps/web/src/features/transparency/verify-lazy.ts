// What a verification loads when the user asks for one (a dynamic import): the tree's hashing
// (packages/proof), viem's chain reads and the check, none of which the page needs to show its figures.
export { chainReader, fetchJsonRpc } from './chain-reader.ts';
export { runVerification } from './verify-run.ts';
