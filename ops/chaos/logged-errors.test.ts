// The report's view of what the instances logged (logged-errors.ts): a request's error with its
// route, a job's console.error with its stack, nothing before the run, nothing below level 50.
import { describe, expect, it } from 'vitest';
import { formatLoggedErrors, parseLoggedErrors } from './logged-errors.ts';

const line = (entry: Record<string, unknown>) => JSON.stringify(entry);

describe('the errors the instances logged', () => {
  const log = [
    line({ level: 50, time: 900, msg: 'before the run' }),
    line({ level: 30, time: 1_000, reqId: 'req-7', req: { method: 'POST', url: '/api/v1/trade/order' }, msg: 'incoming request' }),
    line({ level: 40, time: 1_001, reqId: 'req-7', msg: 'request failed: a dependency is unavailable' }),
    line({
      level: 50,
      time: 1_002,
      reqId: 'req-7',
      msg: 'request failed',
      err: {
        type: 'Error',
        message: 'market: the writer failed the command',
        stack: 'Error: market…\n    at settle (gateway.ts:1)\n    at onReply (gateway.ts:2)',
      },
    }),
    'market: a forwarded command failed Error: deadlock detected',
    '    at Parser.parseErrorMessage (parser.js:1)',
    "  code: '40P01',",
    'not JSON and not indented: a line of its own',
    line({ level: 30, time: 1_500, msg: 'request completed' }),
  ].join('\n');

  it('keeps level 50 and console lines from the run, with the request and the first frames', () => {
    const errors = parseLoggedErrors('api-2', log, 1_000);
    expect(errors.map((e) => e.message)).toEqual([
      'request failed',
      'market: a forwarded command failed Error: deadlock detected',
      'not JSON and not indented: a line of its own',
    ]);
    expect(errors[0]).toMatchObject({ instance: 'api-2', at: 1_002, request: 'POST /api/v1/trade/order' });
    expect(errors[0]!.detail).toEqual(['Error market: the writer failed the command', 'at settle (gateway.ts:1)', 'at onReply (gateway.ts:2)']);
    expect(errors[1]!.detail).toEqual(['at Parser.parseErrorMessage (parser.js:1)', "code: '40P01',"]);
  });

  it("keeps an error's message of several lines together, up to its frames, and lines without an error apart", () => {
    const text = [
      line({ level: 30, time: 2_000, msg: 'request completed' }),
      'account socket: balance push failed DrizzleQueryError: Failed query: select 1',
      'params: 11',
      '    at readUserAccounts (records-repo.ts:18:5)',
      '[ioredis] Unhandled error event: Error: connect ECONNREFUSED 127.0.0.1:6379',
      '    at TCPConnectWrap.afterConnect (node:net:2021:16)',
      'redis (subscriber): connection lost, reconnecting: connect ECONNREFUSED 127.0.0.1:6379',
      'redis (commands): connection lost, reconnecting: connect ECONNREFUSED 127.0.0.1:6379',
    ].join('\n');
    expect(parseLoggedErrors('api-3', text, 0).map((e) => [e.message, e.detail])).toEqual([
      ['account socket: balance push failed DrizzleQueryError: Failed query: select 1', ['params: 11', 'at readUserAccounts (records-repo.ts:18:5)']],
      ['[ioredis] Unhandled error event: Error: connect ECONNREFUSED 127.0.0.1:6379', ['at TCPConnectWrap.afterConnect (node:net:2021:16)']],
      ['redis (subscriber): connection lost, reconnecting: connect ECONNREFUSED 127.0.0.1:6379', []],
      ['redis (commands): connection lost, reconnecting: connect ECONNREFUSED 127.0.0.1:6379', []],
    ]);
  });

  it("keeps an error's first message line and its frames, not the rest of a long message", () => {
    const text = line({
      level: 50,
      time: 3_000,
      msg: 'chain worker round failed; retrying',
      err: {
        type: 'HttpRequestError',
        message: 'HTTP request failed.\n\nURL: http://127.0.0.1:8545/',
        stack: 'HttpRequestError: HTTP request failed.\n\nURL: http://127.0.0.1:8545/\n    at withTimeout (viem.js:1)',
      },
    });
    expect(parseLoggedErrors('api-1', text, 0)[0]!.detail).toEqual(['HttpRequestError HTTP request failed.', 'at withTimeout (viem.js:1)']);
  });

  it('prints each message once with its count and instances, and says so when there is none', () => {
    const errors = [...parseLoggedErrors('api-2', log, 1_000), ...parseLoggedErrors('api-3', log, 1_000)].sort((a, b) => a.at - b.at);
    const lines = formatLoggedErrors(errors, 1);
    expect(lines[0]).toBe('The instances logged 6 error(s) and console line(s), 3 different; the first 1:');
    expect(lines[1]).toBe('- 00:00:01.002 api-2, api-3 POST /api/v1/trade/order: request failed (×2)');
    expect(lines).toHaveLength(5);
    expect(formatLoggedErrors([])).toEqual(['The instances logged no error and printed nothing beside their request log.']);
  });
});
