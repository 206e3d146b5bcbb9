import pg from 'pg';
import { defineAgent } from '../../src/agents/define-agent';
import type { StreamedEvent } from '../../src/client/tree-stream';
import { createAgentTestEnvironment } from '../../src/testing/agent-test-environment';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres';
import { slowStreamingModel } from '../helpers/slow-model';
import { testAddress, testNamespace } from '../helpers/temporal';
import { demoModels } from '../helpers/demo-models';

const answer = Array.from({ length: 60 }, (_unused, index) => `pg${index} `);

describe('live text on PostgreSQL', () => {
  let server: TestPostgres;
  let url: string;
  beforeAll(async () => {
    server = await startTestPostgres();
    url = await server.createDatabase('cadre_live_text');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('streams a step’s text to stream() readers from a PostgreSQL store, and prunes the rows after the step', async () => {
    await using test = await createAgentTestEnvironment({
      agents: [defineAgent({ name: 'pg-talker', model: slowStreamingModel(answer, 20) })],
      address: testAddress(),
      namespace: testNamespace(),
      models: demoModels(),
      store: url,
      approvalSecret: false,
    });
    const handle = await test.client.start('pg-talker', { prompt: 'talk' });
    const events: StreamedEvent[] = [];
    for await (const event of handle.stream()) events.push(event);
    const textAt = events.findIndex((event) => event.type === 'text');
    const deltas = events.slice(0, textAt).filter((event) => event.type === 'text-delta');
    expect(deltas.length).toBeGreaterThanOrEqual(5);
    expect(deltas.map((event) => (event.type === 'text-delta' ? event.delta : '')).join('')).toBe(answer.join(''));
    const database = new pg.Client({ connectionString: url });
    await database.connect();
    try {
      const rows = await database.query('SELECT COUNT(*)::int AS n FROM cadre_live_deltas WHERE workflow_id = $1', [
        handle.workflowId,
      ]);
      expect(rows.rows[0].n).toBe(0);
    } finally {
      await database.end();
    }
  });
});
