import { describe, expect, it } from 'vitest';
import { isConnectionError } from './connection-errors';

const withCode = (code: string, message = 'error') => Object.assign(new Error(message), { code });

describe('isConnectionError', () => {
  it('takes a session the server ended as the connection gone, whichever way pg reports it', () => {
    // The FATAL itself, when the next statement was already on its way (pg hands it to that statement).
    expect(
      isConnectionError(withCode('25P03', 'terminating connection due to idle-in-transaction timeout')),
    ).toBe(true);
    expect(isConnectionError(withCode('25P04'))).toBe(true);
    expect(isConnectionError(withCode('57P01'))).toBe(true);
    expect(isConnectionError(withCode('08006'))).toBe(true);
    // Refused at connect or out of resources: the database dropped, the role gone, too many connections.
    expect(isConnectionError(withCode('3D000', 'database "x" does not exist'))).toBe(true);
    expect(isConnectionError(withCode('28P01', 'password authentication failed'))).toBe(true);
    expect(isConnectionError(withCode('53300', 'sorry, too many clients already'))).toBe(true);
    // Or the closed socket, when the client was idle.
    expect(isConnectionError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionError(new Error('x', { cause: withCode('ECONNRESET') }))).toBe(true);
  });

  it('leaves errors about the statement to the statement', () => {
    expect(isConnectionError(withCode('23505', 'duplicate key value'))).toBe(false);
    expect(isConnectionError(withCode('40P01', 'deadlock detected'))).toBe(false);
    expect(isConnectionError(withCode('25P02', 'current transaction is aborted'))).toBe(false);
    expect(isConnectionError('Connection terminated')).toBe(false);
  });
});
