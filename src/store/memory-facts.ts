import type { SqlDriver } from './sql-driver';
import { StoreCipher } from './store-cipher';

/** A remembered fact: what the agent saved, in its scope. */
export interface MemoryFact {
  id: string;
  text: string;
}

/**
 * Facts an agent remembers per scope, searched by full text (SQLite FTS5, PostgreSQL `tsvector`):
 * the store behind the built-in memory provider. Adding is idempotent by id.
 */
export interface MemoryFacts {
  /** Saves a fact under `id`; an id already saved keeps its first text. True when this call saved it. */
  add(scope: string, id: string, text: string): Promise<boolean>;
  /** The facts of `scope` most relevant to `query` (any of its words), best first. */
  search(scope: string, query: string, limit?: number): Promise<MemoryFact[]>;
  /** Every fact of `scope`, oldest first. */
  list(scope: string): Promise<MemoryFact[]>;
  /** Forgets a fact; true when it existed. */
  remove(scope: string, id: string): Promise<boolean>;
}

/** Words too common to say what a question is about. */
const stopWords = new Set(
  'the and for are but not you your with this that from have has was were what which who whom how why when where does did can could would should will about into than then them they their there these those its'.split(
    ' ',
  ),
);

/** The words of a query worth searching for: letters and digits, three or more, no stop words. */
export function searchWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
  return [...new Set(words.filter((word) => !stopWords.has(word)))].slice(0, 32);
}

/**
 * {@link MemoryFacts} over a SQL driver. With `cipher`'s keys, texts are encrypted and no search
 * index is written (it would hold the words in clear): search decrypts the scope's facts and ranks them.
 */
export class SqlMemoryFacts implements MemoryFacts {
  constructor(
    private readonly driver: SqlDriver,
    private readonly cipher: StoreCipher = new StoreCipher(),
  ) {}

  async add(scope: string, id: string, text: string): Promise<boolean> {
    return await this.driver.transaction(async (tx) => {
      const inserted = await tx.query(
        'INSERT INTO cadre_memory_facts (scope, fact_id, text) VALUES ($1, $2, $3) ON CONFLICT (scope, fact_id) DO NOTHING RETURNING fact_id',
        [scope, id, this.cipher.seal(text, factContext(scope, id))],
      );
      if (inserted.length === 0) return false;
      if (this.driver.dialect === 'sqlite' && !this.cipher.enabled) {
        await tx.query('INSERT INTO cadre_memory_facts_index (scope, fact_id, text) VALUES ($1, $2, $3)', [
          scope,
          id,
          text,
        ]);
      }
      return true;
    });
  }

  async search(scope: string, query: string, limit = 5): Promise<MemoryFact[]> {
    const words = searchWords(query);
    if (words.length === 0) return [];
    if (this.cipher.enabled) return rankFacts(await this.list(scope), words, limit);
    const rows =
      this.driver.dialect === 'sqlite'
        ? await this.driver.query<{ fact_id: string; text: string }>(
            `SELECT fact_id, text FROM cadre_memory_facts_index
             WHERE cadre_memory_facts_index MATCH $1 AND scope = $2 ORDER BY rank LIMIT $3`,
            [words.map((word) => `"${word}"`).join(' OR '), scope, limit],
          )
        : await this.driver.query<{ fact_id: string; text: string }>(
            `SELECT fact_id, text FROM cadre_memory_facts, to_tsquery('english', $1) AS query
             WHERE scope = $2 AND search @@ query ORDER BY ts_rank(search, query) DESC, created_at LIMIT $3`,
            [words.join(' | '), scope, limit],
          );
    return rows.map((row) => ({ id: row.fact_id, text: row.text }));
  }

  async list(scope: string): Promise<MemoryFact[]> {
    const rows = await this.driver.query<{ fact_id: string; text: string }>(
      'SELECT fact_id, text FROM cadre_memory_facts WHERE scope = $1 ORDER BY created_at, fact_id',
      [scope],
    );
    return rows.map((row) => ({ id: row.fact_id, text: this.cipher.open(row.text, factContext(scope, row.fact_id)) }));
  }

  async remove(scope: string, id: string): Promise<boolean> {
    return await this.driver.transaction(async (tx) => {
      const removed = await tx.query(
        'DELETE FROM cadre_memory_facts WHERE scope = $1 AND fact_id = $2 RETURNING fact_id',
        [scope, id],
      );
      if (this.driver.dialect === 'sqlite') {
        await tx.query('DELETE FROM cadre_memory_facts_index WHERE scope = $1 AND fact_id = $2', [scope, id]);
      }
      return removed.length > 0;
    });
  }
}

const factContext = (scope: string, id: string) => `cadre_memory_facts/${scope}/${id}`;

/**
 * The facts that contain any of `words` (as word prefixes, like the indexes' stemming), most
 * matched words first, then newest first: the search over encrypted facts, after decryption.
 */
export function rankFacts(facts: readonly MemoryFact[], words: readonly string[], limit: number): MemoryFact[] {
  const scored = facts.map((fact, order) => {
    const factWords = fact.text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    const score = words.filter((word) =>
      factWords.some((each) => each.startsWith(word) || (each.length >= 3 && word.startsWith(each))),
    ).length;
    return { fact, score, order };
  });
  return scored
    .filter((each) => each.score > 0)
    .sort((a, b) => b.score - a.score || b.order - a.order)
    .slice(0, limit)
    .map((each) => each.fact);
}
