import { Client } from 'pg';
import { StoreUnavailableError } from '../../src/store/store-errors';
import { PostgresDriver } from '../../src/store/postgres-store';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres';
import { waitFor } from '../helpers/wait';

describe('the PostgreSQL store when the server drops a connection it holds', () => {
  let postgres: TestPostgres;
  let url: string;
  let driver: PostgresDriver;
  let admin: Client;

  beforeAll(async () => {
    postgres = await startTestPostgres();
    url = await postgres.createDatabase('dropped');
    driver = new PostgresDriver(url, {});
    admin = new Client({ connectionString: url });
    await admin.connect();
  }, 120_000);
  afterAll(async () => {
    await admin?.end();
    await driver?.close();
    await postgres?.stop();
  });

  const alive = async (pid: number) =>
    (await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount === 1;

  it('fails the transaction as a store outage between two of its queries, and the process goes on', async () => {
    // As a server restart does to every connection: the backend ends and the socket closes while
    // the transaction holds the connection, between two queries.
    const outcome = await driver
      .transaction(async (tx) => {
        const pid = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]?.pid ?? 0;
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        await waitFor(async () => !(await alive(pid)), 'the backend gone');
        // Let the closed socket reach the client before the next query.
        await new Promise((resolve) => setTimeout(resolve, 100));
        await tx.query('SELECT 1');
        return 'committed';
      })
      .catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(StoreUnavailableError);
    expect((outcome as Error).message).toContain('CADRE_STORE_URL');
    // The dropped connection left the pool: the next call gets a fresh one.
    expect(await driver.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  }, 60_000);

  it('fails a query the server drops while it runs as a store outage', async () => {
    const running = driver.query('SELECT pg_sleep(30)').catch((error: unknown) => error);
    let pid = 0;
    await waitFor(async () => {
      const rows = await admin.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)' AND state = 'active'",
      );
      pid = rows.rows[0]?.pid ?? 0;
      return pid > 0;
    }, 'the query running');
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    expect(await running).toBeInstanceOf(StoreUnavailableError);
    expect(await driver.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  }, 60_000);
});
