import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config';
import { loadSecrets } from './secrets';

const scratch = mkdtempSync(join(tmpdir(), 'secrets-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
/** A DATA_DIR whose secrets.json holds `content`. */
function write(content: string) {
  const dataDir = mkdtempSync(join(scratch, 'data-'));
  const file = join(dataDir, 'secrets.json');
  writeFileSync(file, content);
  return { dataDir, file };
}

const good = { jwtSecret: 'j'.repeat(48), posKeySecret: 'ab'.repeat(32) };

describe('DATA_DIR/secrets.json gets the checks of JWT_SECRET and POS_KEY_SECRET', () => {
  it.each([
    ['a truncated file', '{"jwtSecret": "abc', 'is not valid JSON'],
    [
      'a POS key that is not hex',
      JSON.stringify({ ...good, posKeySecret: 'nothex' }),
      'posKeySecret must be 64 hex',
    ],
    ['a one-character JWT key', JSON.stringify({ ...good, jwtSecret: 'x' }), 'jwtSecret must be at least 32'],
    ['no object', '[]', 'expected object'],
  ])('%s is refused in one line naming the file and the field', (_, content, message) => {
    const { dataDir, file } = write(content);
    const load = () => loadSecrets(dataDir, {});
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(`${file}: `);
    expect(load).toThrow(message);
    // Left as it was, for the operator to mend.
    expect(readFileSync(file, 'utf8')).toBe(content);
  });

  it('a sound file is used as it is', () => {
    const { dataDir } = write(JSON.stringify(good));
    expect(loadSecrets(dataDir, {})).toEqual(good);
  });
});
