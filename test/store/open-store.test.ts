import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigurationError } from '../../src/errors';
import { describeStoreUrl, openStore, parseStoreUrl } from '../../src/store';

describe('openStore', () => {
  const saved = { root: process.env.CADRE_HOME, url: process.env.CADRE_STORE_URL };

  afterEach(() => {
    for (const [name, value] of [
      ['CADRE_HOME', saved.root],
      ['CADRE_STORE_URL', saved.url],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  test('refuses a URL scheme it does not know with a ConfigurationError naming CADRE_STORE_URL', async () => {
    const failure = await openStore('mysql://root:hunter2@localhost/cadre').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigurationError);
    expect((failure as ConfigurationError).message).toMatch(
      /^CADRE_STORE_URL must start with sqlite: .* or postgres:\/\//,
    );
    expect((failure as ConfigurationError).message).toContain("got 'mysql://root:***@localhost/cadre'");
    expect(() => parseStoreUrl('sqlite:')).toThrow(ConfigurationError);
  });

  test('defaults to data/cadre.db in CADRE_HOME when CADRE_STORE_URL is unset, and keeps the home out of git', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-home-'));
    process.env.CADRE_HOME = home;
    delete process.env.CADRE_STORE_URL;
    try {
      const store = await openStore();
      await store.close();
      expect(store.address).toBe(`sqlite:${path.join(home, 'data', 'cadre.db')}`);
      expect(fs.existsSync(path.join(home, 'data', 'cadre.db'))).toBe(true);
      expect(fs.readFileSync(path.join(home, '.gitignore'), 'utf8')).toContain('\n*\n');
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  test('uses CADRE_STORE_URL when no URL is passed', async () => {
    process.env.CADRE_STORE_URL = 'sqlite::memory:';
    const store = await openStore();
    await store.close();
    expect(store.address).toBe('sqlite::memory:');
  });

  test('describes a PostgreSQL URL with its password hidden', () => {
    expect(describeStoreUrl('postgres://cadre:s3cret@db:5432/cadre')).toBe('postgres://cadre:***@db:5432/cadre');
    expect(describeStoreUrl('postgresql://db/cadre?password=s3cret')).toBe('postgresql://db/cadre?password=***');
    expect(describeStoreUrl('sqlite:/tmp/cadre.db')).toBe('sqlite:/tmp/cadre.db');
  });
});
