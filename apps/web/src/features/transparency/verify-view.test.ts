import { describe, expect, it } from 'vitest';
import enLocale from '../../locales/EN.json';
import twLocale from '../../locales/TW.json';
import { balanceFixture, chainId, contractAddress, fakeChain, incomeFixture, me, type ChainRecord } from './test-fixtures.ts';
import { runVerification, type ProofTarget, type VerifyOutcomeFailure } from './verify-run.ts';
import { shortHash, stepLines } from './verify-view.ts';

const tx = `0x${'1'.repeat(64)}`;
const labelOf = (dim: string) => `<${dim}>`;

async function linesOf(target: ProofTarget, records: ChainRecord[], options: { fail?: boolean } = {}) {
  const chain = fakeChain(records, options);
  const outcome = await runVerification(target, { userId: me, contract: { chain_id: chainId, address: contractAddress }, reader: async () => chain.reader });
  return { outcome, lines: stepLines(outcome, { userId: me, dims: target.data.proof.dims, labelOf }) };
}

describe('the check in words', () => {
  it('says each step of a good balance proof with its amounts and hashes', async () => {
    const { data, root } = balanceFixture(5, { txHash: tx });
    const { lines } = await linesOf({ kind: 'balance', data }, [{ snapshotId: 5, epoch: 3, liabilitiesRoot: root, rewardsRoot: null, txHash: tx }]);
    expect(lines.every((line) => line.ok)).toBe(true);
    expect(lines[0]).toMatchObject({ key: 'userKey', params: { id: me } });
    expect(lines[1]).toMatchObject({ key: 'leaf', params: { part: 1 } });
    expect(String(lines[1]!.params.amounts)).toMatch(/^[\d.,]+ NADI, [\d.,]+ USDT$/);
    expect(lines.some((line) => line.key === 'climbLeft') && lines.some((line) => line.key === 'climbRight')).toBe(true);
    expect(lines.at(-2)).toEqual({ key: 'total', params: { amounts: '7 NADI, 14 USDT' }, ok: true });
    expect(lines.at(-1)).toEqual({
      key: 'publishedInTx',
      params: { root: expect.stringMatching(/^0x[0-9a-f]{8}\u2060…\u2060[0-9a-f]{8}$/), block: '42' },
      ok: true,
      txHash: tx,
    });
  });

  it('words income by kind, all in NADI', async () => {
    const { data, root } = incomeFixture(3, { txHash: tx });
    const { lines } = await linesOf({ kind: 'income', data }, [{ snapshotId: 9, epoch: 3, liabilitiesRoot: root, rewardsRoot: root, txHash: tx }]);
    expect(lines.at(-2)).toMatchObject({ key: 'total', params: { amounts: '15 NADI (<mining> 7, <node> 7, <team> 1)' } });
  });

  it('says what differs when a step fails', async () => {
    const { data } = balanceFixture(5, { txHash: tx, expected: ['7000000000000000000', '13500000000000000000'] });
    const { lines } = await linesOf({ kind: 'balance', data }, [
      { snapshotId: 5, epoch: 3, liabilitiesRoot: `0x${'e'.repeat(64)}`, rewardsRoot: null, txHash: tx },
    ]);
    expect(lines.at(-2)).toEqual({ key: 'totalDiffers', params: { amounts: '7 NADI, 14 USDT', expected: '7 NADI, 13.5 USDT' }, ok: false });
    expect(lines.at(-1)).toMatchObject({ key: 'publishedMismatch', params: { published: shortHash(`0x${'e'.repeat(64)}`) }, ok: false });
  });

  it('shortens a hash into one word: no line break at its ellipsis', () => {
    expect(shortHash(`0x${'ab'.repeat(32)}`)).toBe('0xabababab\u2060…\u2060abababab');
  });

  it('cuts amounts to eight decimals, but shows every digit where two totals differ', async () => {
    const { data, root } = balanceFixture(5, { txHash: tx, expected: ['7000000000000000001', '14000000000000000000'] });
    const { lines } = await linesOf({ kind: 'balance', data }, [{ snapshotId: 5, epoch: 3, liabilitiesRoot: root, rewardsRoot: null, txHash: tx }]);
    // Part 1 holds a third of 7 NADI: 2.333… cut, never rounded.
    expect(String(lines[1]!.params.amounts)).toMatch(/^2\.33333333 NADI, /);
    expect(lines.at(-2)?.params).toEqual({ amounts: '7 NADI, 14 USDT', expected: '7.000000000000000001 NADI, 14 USDT' });
  });

  it('says the chain could not be asked rather than that nothing was published', async () => {
    const { data } = balanceFixture(5, { txHash: tx });
    const { lines } = await linesOf({ kind: 'balance', data }, [], { fail: true });
    expect(lines.at(-1)).toEqual({ key: 'chainUnreachable', params: {}, ok: false });
  });

  it('has a text in English and Traditional Chinese for every step and every failure it can show', () => {
    const stepKeys = ['userKey', 'leaf', 'leafNegative', 'climbLeft', 'climbRight', 'climbNegative', 'root', 'rootMismatch', 'total', 'totalDiffers'];
    const publishedKeys = ['publishedInTx', 'publishedInBlock', 'notPublished', 'publishedMismatch', 'chainUnreachable', 'wrongChain'];
    const failures: VerifyOutcomeFailure[] = [
      'not_included',
      'negative',
      'root_mismatch',
      'amounts_differ',
      'not_published',
      'published_mismatch',
      'chain_unreachable',
      'wrong_chain',
    ];
    for (const locale of [enLocale, twLocale]) {
      const texts = locale.transparency as unknown as { step: Record<string, string>; failure: Record<string, string>; kind: Record<string, string> };
      expect([...stepKeys, ...publishedKeys].filter((key) => !texts.step[key])).toEqual([]);
      expect(failures.filter((key) => !texts.failure[key])).toEqual([]);
      expect(['mining', 'savings', 'node', 'team'].filter((key) => !texts.kind[key])).toEqual([]);
    }
  });
});
