import { describe, expect, it } from 'vitest';
import { decideAfterAttempt } from '../../core/client/retryPolicy';
import { DEFAULT_CLIENT_CONFIG } from '../../core/client/config';
import { KvStatus, TransportErrorCode } from '../../core/domain/status';
import { parseScriptReply, scriptArgs, evalCommand, versionOfReply } from './dataScript';
import { outcomeOfIoredisError } from './ioredisClient';
import { RespError } from './resp';
import { ERROR_MAPPINGS, redirectTarget, statusOfError } from './statusMapping';

describe('Redis error replies → Zaris statuses', () => {
  it.each([
    ['MOVED 3999 127.0.0.1:7002', KvStatus.Moved],
    ['TRYAGAIN Multiple keys request during rehashing of slot', KvStatus.Migrating],
    ['CLUSTERDOWN The cluster is down', KvStatus.Unavailable],
    ['CLUSTERDOWN Hash slot not served', KvStatus.Unavailable],
    ['LOADING Redis is loading the dataset in memory', KvStatus.Unavailable],
    ['MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to no', KvStatus.Unavailable],
    ["READONLY You can't write against a read only replica.", KvStatus.ReplicaWriteRejected],
  ])('%s → %s', (msg, status) => {
    expect(statusOfError(new RespError(msg))).toBe(status);
  });

  it('leaves every other error to NonRetryable (and ASK to the transport)', () => {
    expect(statusOfError(new RespError('ERR unknown command'))).toBeNull();
    expect(statusOfError(new RespError('ASK 12 127.0.0.1:7000'))).toBeNull();
    expect(statusOfError(new RespError('NOSCRIPT No matching script'))).toBeNull();
  });

  it('gives the retry brain what it needs: MOVED / READONLY refresh first, TRYAGAIN / CLUSTERDOWN back off', () => {
    const bugs = DEFAULT_CLIENT_CONFIG.bugs;
    const refreshFirst = ERROR_MAPPINGS.filter((m) => {
      const d = decideAfterAttempt({ status: m.status }, bugs);
      return d.kind === 'retry' && d.refreshFirst;
    }).map((m) => m.code);
    expect(refreshFirst).toEqual(['MOVED', 'READONLY']);
    for (const m of ERROR_MAPPINGS) expect(decideAfterAttempt({ status: m.status }, bugs).kind).toBe('retry');
  });

  it('reads the target of ASK and MOVED', () => {
    expect(redirectTarget(new RespError('ASK 12 127.0.0.1:7000'))).toEqual({ slot: 12, host: '127.0.0.1', port: 7000 });
    expect(redirectTarget(new RespError('MOVED 16383 ::1:30001'))).toEqual({ slot: 16383, host: '::1', port: 30001 });
    expect(redirectTarget(new RespError('CLUSTERDOWN x'))).toBeNull();
  });
});

describe('ioredis errors → outcomes', () => {
  it.each([
    ['Too many Cluster redirections. Last error: ReplyError: CLUSTERDOWN The cluster is down', KvStatus.Unavailable],
    ['Too many Cluster redirections. Last error: Error: Connection is closed.', TransportErrorCode.Socket],
    ['Too many Cluster redirections. Last error: ReplyError: MOVED 12 127.0.0.1:7000', KvStatus.Moved],
    ['Connection is closed.', TransportErrorCode.Socket],
    ['connect ECONNREFUSED 127.0.0.1:7000', TransportErrorCode.NodeUnavailable],
    ['Command timed out', TransportErrorCode.Timeout],
    ['ERR syntax error', 'NonRetryable'],
  ])('%s → %s', (msg, outcome) => {
    expect(outcomeOfIoredisError(new Error(msg))).toBe(outcome);
  });
});

describe('the data script', () => {
  it('passes kind, value, condition, version to match and the op id', () => {
    expect(scriptArgs({ kind: 'get', key: 'k', op: 7 })).toEqual(['g', '', '', 0, 7]);
    expect(scriptArgs({ kind: 'put', key: 'k', value: 'v', cond: { ifAbsent: true }, op: 8 })).toEqual(['p', 'v', 'a', 0, 8]);
    expect(scriptArgs({ kind: 'put', key: 'k', value: 'v', cond: { ifMatchVersion: 3 }, op: 9 })).toEqual(['p', 'v', 'm', 3, 9]);
    expect(scriptArgs({ kind: 'delete', key: 'k', op: 10 })).toEqual(['d', '', '', 0, 10]);
    expect(evalCommand({ kind: 'get', key: 'k1', op: 1 }).slice(2, 4)).toEqual([1, 'k1']);
  });

  it('reads its replies back as statuses with versions', () => {
    expect(parseScriptReply(['Ok', 'v', 3])).toEqual({ status: 'Ok', value: 'v', version: 3 });
    expect(parseScriptReply(['Ok', null, 4])).toEqual({ status: 'Ok', version: 4 });
    expect(parseScriptReply(['NotFound', null, 2])).toEqual({ status: 'NotFound', version: 2 });
    expect(parseScriptReply(['Conflict', null, 5])).toEqual({ status: 'Conflict', version: 5 });
    expect(parseScriptReply(['Bogus', null, 5])).toBeNull();
    expect(parseScriptReply('OK')).toBeNull();
    expect(versionOfReply('12')).toBe(12);
    expect(versionOfReply(null)).toBe(0);
    expect(versionOfReply(new RespError('MOVED 1 h:1'))).toBe(0);
  });
});
