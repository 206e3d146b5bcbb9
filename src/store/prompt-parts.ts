import { createHash } from 'node:crypto';
import type { SqlDriver } from './sql-driver';
import { StoreCipher } from './store-cipher';

/**
 * The inline data of large prompt parts (images and files), kept out of workflow history: the client
 * writes a part here before it starts or signals a run, and the message carries only the key. Keys are
 * content hashes, so writing the same data twice keeps one copy; parts are never changed or deleted.
 */
export interface PromptParts {
  /** Stores `data` (base64 or a data URL, as the part carried it) and returns its key, `sha256:<hex>`. */
  put(data: string): Promise<string>;
  /** The data stored under `key`, or undefined. */
  get(key: string): Promise<string | undefined>;
}

/** The key of a part's data: its SHA-256, so the same data always has the same key. */
export function promptPartKey(data: string): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

/** {@link PromptParts} over a SQL driver (table `cadre_prompt_parts`); data encrypted by `cipher`'s keys. */
export class SqlPromptParts implements PromptParts {
  constructor(
    private readonly driver: SqlDriver,
    private readonly cipher: StoreCipher = new StoreCipher(),
  ) {}

  async put(data: string): Promise<string> {
    const key = promptPartKey(data);
    await this.driver.query(
      'INSERT INTO cadre_prompt_parts (id, bytes, data) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING',
      [key, data.length, this.cipher.seal(data, `cadre_prompt_parts/${key}`)],
    );
    return key;
  }

  async get(key: string): Promise<string | undefined> {
    const rows = await this.driver.query<{ data: string }>('SELECT data FROM cadre_prompt_parts WHERE id = $1', [key]);
    return rows[0] ? this.cipher.open(rows[0].data, `cadre_prompt_parts/${key}`) : undefined;
  }
}
