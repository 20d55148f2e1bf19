import { loginRequest, PASSWORD_MAX_LENGTH, USERNAME_MAX_LENGTH } from '@loyalty/contracts';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadDatabaseConfig } from './config';

describe('a variable of only whitespace', () => {
  // Coerced to a number it was 0: a random port, a sweeper or webhook delivery or group commit switched off.
  it.each([
    ['PORT', ' '],
    ['HOLD_SWEEP_INTERVAL_MS', ' '],
    ['POINTS_EXPIRY_INTERVAL_MS', '\t'],
    ['WEBHOOK_POLL_INTERVAL_MS', ' '],
    ['POS_GROUP_COMMIT_LANES', ' '],
    ['DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', '  '],
    ['ADMIN_PASSWORD', '          '],
    ['TRUST_PROXY', ' '],
  ])('%s is refused, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(`${name}: is only whitespace`);
  });

  it('while an empty one is still unset (the default)', () => {
    const config = loadConfig({ PORT: '', HOLD_SWEEP_INTERVAL_MS: '', ADMIN_PASSWORD: '' });
    expect(config.PORT).toBe(3000);
    expect(config.HOLD_SWEEP_INTERVAL_MS).toBe(30_000);
    expect(config.ADMIN_PASSWORD).toBeUndefined();
  });
});

describe('the first admin can sign in with what the start accepts', () => {
  const signsIn = (username: string, password: string) =>
    loginRequest.safeParse({ username, password }).success;

  it('refuses a username or password longer than a sign-in takes', () => {
    expect(() => loadConfig({ ADMIN_USERNAME: 'u'.repeat(120) })).toThrow(
      `ADMIN_USERNAME: must be at most ${USERNAME_MAX_LENGTH} characters`,
    );
    expect(() => loadConfig({ ADMIN_PASSWORD: 'p'.repeat(250) })).toThrow(
      `ADMIN_PASSWORD: must be at most ${PASSWORD_MAX_LENGTH} characters`,
    );
  });

  it('takes the longest ones a sign-in takes', () => {
    const username = 'u'.repeat(USERNAME_MAX_LENGTH);
    const password = 'p'.repeat(PASSWORD_MAX_LENGTH);
    const config = loadConfig({ ADMIN_USERNAME: username, ADMIN_PASSWORD: password });
    expect(config.ADMIN_USERNAME).toBe(username);
    expect(signsIn(config.ADMIN_USERNAME, config.ADMIN_PASSWORD!)).toBe(true);
    expect(signsIn('u'.repeat(USERNAME_MAX_LENGTH + 1), password)).toBe(false);
    expect(signsIn(username, 'p'.repeat(PASSWORD_MAX_LENGTH + 1))).toBe(false);
  });
});

describe('the database scripts read only the database variables', () => {
  it('a bad PORT is no concern of theirs, a bad DATABASE_URL is', () => {
    expect(loadDatabaseConfig({ PORT: 'eighty', DATA_DIR: '/srv/data' })).toEqual({ DATA_DIR: '/srv/data' });
    expect(() => loadDatabaseConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must start with/);
    expect(() => loadDatabaseConfig({ DATA_DIR: ' ' })).toThrow('DATA_DIR: is only whitespace');
  });
});

describe('the shutdown delays', () => {
  it('default to no drain and a 10 s grace, and are bounded like the other timers', () => {
    const config = loadConfig({});
    expect(config.SHUTDOWN_DRAIN_MS).toBe(0);
    expect(config.SHUTDOWN_GRACE_MS).toBe(10_000);
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '15000', SHUTDOWN_GRACE_MS: '0' })).toMatchObject({
      SHUTDOWN_DRAIN_MS: 15_000,
      SHUTDOWN_GRACE_MS: 0,
    });
    for (const name of ['SHUTDOWN_DRAIN_MS', 'SHUTDOWN_GRACE_MS']) {
      for (const value of ['-1', '2147483648', '1.5', 'ten']) {
        expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(`${name}:`));
      }
      expect(() => loadConfig({ [name]: ' ' })).toThrow(`${name}: is only whitespace`);
    }
  });
});
