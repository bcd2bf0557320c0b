import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BaseError, ContractFunctionRevertedError, keccak256, parseUnits, toHex, type Address, type Hex } from 'viem';
import { nadiTokenAbi, paymentGatewayAbi, testUsdtAbi, testUsdtBytecode } from './artifacts.ts';
import { localWalletClient, publicClientFor } from './clients.ts';
import { demoUserAddresses, deployerAddress } from './demo-accounts.ts';
import { deployLocalContracts, type LocalContracts } from './deploy.ts';
import { startLocalChain, type LocalChain } from './local-chain.ts';

let chain: LocalChain;
let contracts: LocalContracts;
let client: ReturnType<typeof publicClientFor>;

const payer = demoUserAddresses[0]!;
const amount = parseUnits('250', 18);
// Token errors bubble up through the gateway; listing them lets viem decode the revert by name.
const gatewayAndTokenAbi = [...paymentGatewayAbi, ...nadiTokenAbi.filter((item) => item.type === 'error')];

beforeAll(async () => {
  chain = await startLocalChain();
  contracts = await deployLocalContracts(chain.rpcUrl);
  client = publicClientFor(chain.rpcUrl, chain.chainId);
});

afterAll(async () => {
  await chain?.stop();
});

let orderCounter = 0;
function newOrderId(): Hex {
  orderCounter += 1;
  return keccak256(toHex(`order-${orderCounter}`));
}

function balanceOf(token: Address, owner: Address): Promise<bigint> {
  return client.readContract({ address: token, abi: nadiTokenAbi, functionName: 'balanceOf', args: [owner] });
}

async function approve(from: Address, token: Address, value: bigint): Promise<void> {
  const hash = await localWalletClient(chain.rpcUrl, from).writeContract({
    address: token,
    abi: nadiTokenAbi,
    functionName: 'approve',
    args: [contracts.paymentGateway, value],
  });
  expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
}

type PayMethod = 'pay' | 'payAndBurn';

async function pay(from: Address, orderId: Hex, token: Address, value: bigint, method: PayMethod = 'pay') {
  const hash = await localWalletClient(chain.rpcUrl, from).writeContract({
    address: contracts.paymentGateway,
    abi: paymentGatewayAbi,
    functionName: method,
    args: [orderId, token, value],
  });
  return client.waitForTransactionReceipt({ hash });
}

/** Runs pay (or payAndBurn) as an eth_call from `from` and returns the decoded custom error it reverts with. */
async function payRevert(from: Address, orderId: Hex, token: Address, value: bigint, method: PayMethod = 'pay') {
  try {
    await client.simulateContract({
      account: from,
      address: contracts.paymentGateway,
      abi: gatewayAndTokenAbi,
      functionName: method,
      args: [orderId, token, value],
    });
  } catch (error) {
    const reverted = error instanceof BaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null;
    if (reverted instanceof ContractFunctionRevertedError) return { name: reverted.data?.errorName, args: reverted.data?.args };
    throw error;
  }
  throw new Error('pay did not revert');
}

describe('PaymentGateway.pay', () => {
  it('takes an approved amount and emits Paid with the order, payer, token and amount', async () => {
    const orderId = newOrderId();
    const payerBefore = await balanceOf(contracts.usdt, payer);
    await approve(payer, contracts.usdt, amount);
    const receipt = await pay(payer, orderId, contracts.usdt, amount);
    expect(receipt.status).toBe('success');
    const events = await client.getContractEvents({
      address: contracts.paymentGateway,
      abi: paymentGatewayAbi,
      eventName: 'Paid',
      blockHash: receipt.blockHash,
    });
    expect(events.map((event) => event.args)).toEqual([{ orderId, payer, token: contracts.usdt, amount }]);
    expect(await balanceOf(contracts.usdt, payer)).toBe(payerBefore - amount);
    expect(await balanceOf(contracts.usdt, contracts.paymentGateway)).toBe(amount);
    expect(await client.readContract({ address: contracts.paymentGateway, abi: paymentGatewayAbi, functionName: 'paidOrders', args: [orderId] })).toBe(true);
  });

  it('reverts without an approval', async () => {
    const other = demoUserAddresses[1]!;
    expect(await payRevert(other, newOrderId(), contracts.nadi, amount)).toEqual({
      name: 'ERC20InsufficientAllowance',
      args: [contracts.paymentGateway, 0n, amount],
    });
  });

  it('reverts for a token that is not allow-listed, even when approved', async () => {
    const wallet = localWalletClient(chain.rpcUrl, payer);
    const hash = await wallet.deployContract({ abi: testUsdtAbi, bytecode: testUsdtBytecode });
    const { contractAddress } = await client.waitForTransactionReceipt({ hash });
    const unlisted = contractAddress as Address;
    await approve(payer, unlisted, amount);
    const result = await payRevert(payer, newOrderId(), unlisted, amount);
    expect(result.name).toBe('TokenNotAllowed');
    expect((result.args?.[0] as string).toLowerCase()).toBe(unlisted.toLowerCase());
  });

  it('reverts when the same order is paid twice', async () => {
    const orderId = newOrderId();
    await approve(payer, contracts.nadi, 2n * amount);
    expect((await pay(payer, orderId, contracts.nadi, amount)).status).toBe('success');
    expect(await payRevert(payer, orderId, contracts.nadi, amount)).toEqual({ name: 'OrderAlreadyPaid', args: [orderId] });
  });

  it('reverts for amount 0', async () => {
    expect(await payRevert(payer, newOrderId(), contracts.nadi, 0n)).toEqual({ name: 'ZeroAmount', args: undefined });
  });

  it('lets the owner, and only the owner, withdraw what the gateway kept', async () => {
    const to = demoUserAddresses[7]!;
    const kept = await balanceOf(contracts.usdt, contracts.paymentGateway);
    const toBefore = await balanceOf(contracts.usdt, to);
    expect(kept).toBeGreaterThan(0n);
    const args = [contracts.usdt, to, kept] as const;
    await expect(
      client.simulateContract({ account: payer, address: contracts.paymentGateway, abi: paymentGatewayAbi, functionName: 'withdraw', args }),
    ).rejects.toThrow(/OwnableUnauthorizedAccount/);
    const hash = await localWalletClient(chain.rpcUrl, deployerAddress).writeContract({
      address: contracts.paymentGateway,
      abi: paymentGatewayAbi,
      functionName: 'withdraw',
      args,
    });
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(await balanceOf(contracts.usdt, contracts.paymentGateway)).toBe(0n);
    expect(await balanceOf(contracts.usdt, to)).toBe(toBefore + kept);
  });

  it('sends payments to the treasury once the owner sets one', async () => {
    const treasury = demoUserAddresses[8]!;
    const owner = localWalletClient(chain.rpcUrl, deployerAddress);
    const setHash = await owner.writeContract({
      address: contracts.paymentGateway,
      abi: paymentGatewayAbi,
      functionName: 'setTreasury',
      args: [treasury],
    });
    await client.waitForTransactionReceipt({ hash: setHash });
    const before = await balanceOf(contracts.nadi, treasury);
    await approve(payer, contracts.nadi, amount);
    expect((await pay(payer, newOrderId(), contracts.nadi, amount)).status).toBe('success');
    expect(await balanceOf(contracts.nadi, treasury)).toBe(before + amount);
  });

  it('lets only the owner change the allow-list', async () => {
    await expect(
      client.simulateContract({
        account: payer,
        address: contracts.paymentGateway,
        abi: paymentGatewayAbi,
        functionName: 'setTokenAllowed',
        args: [payer, true],
      }),
    ).rejects.toThrow(/OwnableUnauthorizedAccount/);
  });
});

describe('PaymentGateway.payAndBurn', () => {
  const burnAddress: Address = '0x000000000000000000000000000000000000dEaD';

  function isBurned(orderId: Hex): Promise<boolean> {
    return client.readContract({ address: contracts.paymentGateway, abi: paymentGatewayAbi, functionName: 'burnedOrders', args: [orderId] });
  }

  it('moves the amount from the payer to the burn address, emits Paid and marks the order paid and burned', async () => {
    const orderId = newOrderId();
    const [payerBefore, burnedBefore, gatewayBefore] = await Promise.all([
      balanceOf(contracts.nadi, payer),
      balanceOf(contracts.nadi, burnAddress),
      balanceOf(contracts.nadi, contracts.paymentGateway),
    ]);
    await approve(payer, contracts.nadi, amount);
    const receipt = await pay(payer, orderId, contracts.nadi, amount, 'payAndBurn');
    expect(receipt.status).toBe('success');
    const events = await client.getContractEvents({
      address: contracts.paymentGateway,
      abi: paymentGatewayAbi,
      eventName: 'Paid',
      blockHash: receipt.blockHash,
    });
    expect(events.map((event) => event.args)).toEqual([{ orderId, payer, token: contracts.nadi, amount }]);
    expect(await balanceOf(contracts.nadi, payer)).toBe(payerBefore - amount);
    expect(await balanceOf(contracts.nadi, burnAddress)).toBe(burnedBefore + amount);
    expect(await balanceOf(contracts.nadi, contracts.paymentGateway)).toBe(gatewayBefore);
    expect(await client.readContract({ address: contracts.paymentGateway, abi: paymentGatewayAbi, functionName: 'paidOrders', args: [orderId] })).toBe(true);
    expect(await isBurned(orderId)).toBe(true);
    expect(await client.readContract({ address: contracts.paymentGateway, abi: paymentGatewayAbi, functionName: 'BURN_ADDRESS' })).toBe(burnAddress);
  });

  it('pays an order once: neither payAndBurn nor pay can pay it again, and pay never marks an order burned', async () => {
    const burnedOrder = newOrderId();
    await approve(payer, contracts.nadi, 3n * amount);
    expect((await pay(payer, burnedOrder, contracts.nadi, amount, 'payAndBurn')).status).toBe('success');
    expect(await payRevert(payer, burnedOrder, contracts.nadi, amount, 'payAndBurn')).toEqual({ name: 'OrderAlreadyPaid', args: [burnedOrder] });
    expect(await payRevert(payer, burnedOrder, contracts.nadi, amount)).toEqual({ name: 'OrderAlreadyPaid', args: [burnedOrder] });
    const paidOrder = newOrderId();
    expect((await pay(payer, paidOrder, contracts.nadi, amount)).status).toBe('success');
    expect(await payRevert(payer, paidOrder, contracts.nadi, amount, 'payAndBurn')).toEqual({ name: 'OrderAlreadyPaid', args: [paidOrder] });
    expect(await isBurned(paidOrder)).toBe(false);
  });

  it('reverts for amount 0 and for a token that is not allow-listed, burning nothing', async () => {
    const zeroOrder = newOrderId();
    expect(await payRevert(payer, zeroOrder, contracts.nadi, 0n, 'payAndBurn')).toEqual({ name: 'ZeroAmount', args: undefined });
    const wallet = localWalletClient(chain.rpcUrl, payer);
    const hash = await wallet.deployContract({ abi: testUsdtAbi, bytecode: testUsdtBytecode });
    const unlisted = (await client.waitForTransactionReceipt({ hash })).contractAddress as Address;
    await approve(payer, unlisted, amount);
    const before = await balanceOf(unlisted, burnAddress);
    const result = await payRevert(payer, newOrderId(), unlisted, amount, 'payAndBurn');
    expect(result.name).toBe('TokenNotAllowed');
    expect((result.args?.[0] as string).toLowerCase()).toBe(unlisted.toLowerCase());
    expect(await balanceOf(unlisted, burnAddress)).toBe(before);
    expect(await isBurned(zeroOrder)).toBe(false);
  });
});
