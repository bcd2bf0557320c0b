// `npm run chain:deploy`: deploys NadiToken and PaymentGateway to a configured network and prints
// the server's settings for them. Inputs come from the environment (see --help); the env lines go
// to stdout, progress and errors to stderr, so `npm run -s chain:deploy >> .env.production` works.
import { parseArgs } from 'node:util';
import { DeployConfigError, deployToNetwork, envLines, parseDeployConfig } from '../src/network-deploy.ts';

const usage = `Usage: RPC_URL=… DEPLOYER_PRIVATE_KEY=… npm run chain:deploy -- [--allow-local-chain] [--proof-publisher-only]

Deploys NadiToken (unless NADI_ADDRESS names an existing one), PaymentGateway and ProofPublisher,
and allow-lists NADI and USDT in the gateway. Prints CHAIN_ID, NADI_ADDRESS, USDT_ADDRESS,
PAYMENT_GATEWAY_ADDRESS and PROOF_PUBLISHER_ADDRESS as env lines.

Environment:
  RPC_URL                    JSON-RPC endpoint of the network (required)
  DEPLOYER_PRIVATE_KEY       0x + 64 hex: pays the gas, owns the gateway, receives the NADI supply (required)
  CHAIN_ID                   the chain the RPC must serve, e.g. 56 for BSC, 97 for its testnet (recommended)
  NADI_ADDRESS               an existing NADI token to allow-list instead of deploying one
  USDT_ADDRESS               the USDT token to allow-list, e.g. 0x55d398326f99059fF775485246999027B3197955 on BSC
  PAYMENT_TREASURY_ADDRESS   where payments go (default: the gateway keeps them; the owner can withdraw)
  PROOF_PUBLISHER_OWNER      who may publish proofs: the address of the server's HOT_WALLET_PRIVATE_KEY
                             (default: the deployer, which must then hand the contract over)
  DEPLOY_CONFIRMATIONS       blocks each transaction waits for (default 1)

Flags:
  --allow-local-chain        allow chain 31337 (a local Hardhat node); refused otherwise
  --proof-publisher-only     deploy the ProofPublisher alone (the token and the gateway exist already)
  --help                     this text
`;

async function main(): Promise<number> {
  let values: { 'allow-local-chain'?: boolean; 'proof-publisher-only'?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { 'allow-local-chain': { type: 'boolean' }, 'proof-publisher-only': { type: 'boolean' }, help: { type: 'boolean' } },
      strict: true,
    }));
  } catch (error) {
    console.error(`deploy-network: ${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    return 2;
  }
  if (values.help) {
    console.info(usage);
    return 0;
  }
  try {
    const config = parseDeployConfig(process.env, {
      isLocalChainAllowed: values['allow-local-chain'] === true,
      isProofPublisherOnly: values['proof-publisher-only'] === true,
    });
    const deployment = await deployToNetwork(config, (line) => console.error(`› ${line}`));
    if (deployment.isNadiDeployed) console.error(`› the whole NADI supply is with the deployer ${deployment.deployer}: fund the withdrawal hot wallet from it`);
    if (deployment.proofPublisherOwner === deployment.deployer) {
      console.error(
        `› the ProofPublisher is owned by the deployer ${deployment.deployer}: the server publishes with its hot wallet, so transferOwnership to it (or deploy with PROOF_PUBLISHER_OWNER)`,
      );
    }
    for (const line of envLines(deployment)) console.info(line);
    return 0;
  } catch (error) {
    if (error instanceof DeployConfigError) {
      console.error(`deploy-network: refused:\n${error.message.replace(/^/gm, '  - ')}`);
      return 1;
    }
    console.error(`deploy-network: failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

process.exitCode = await main();
