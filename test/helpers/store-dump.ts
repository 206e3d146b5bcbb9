import { DatabaseSync } from 'node:sqlite';

/** Every row of every table of a SQLite file, read with plain SQL. */
export function sqliteDump(file: string): string {
  const database = new DatabaseSync(file);
  try {
    const tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{
      name: string;
    }>;
    return JSON.stringify(tables.map(({ name }) => [name, database.prepare(`SELECT * FROM "${name}"`).all()]));
  } finally {
    database.close();
  }
}
