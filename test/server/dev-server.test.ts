import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { listCustomSearchAttributes, startDevServer, type DevServer } from '../../src/server';
import { agentDepthKey, agentNameKey, cadreSearchAttributes } from '../../src/protocol/search-attributes';
import { testAddress, testNamespace } from '../helpers/temporal';

/** IndexedValueType numbers of the types Cadre uses, as listSearchAttributes reports them. */
const indexedValueType = { KEYWORD: 2, INT: 3 } as const;

async function expectCadreSearchAttributes(address: string, namespace: string): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const listed = await listCustomSearchAttributes(connection, namespace);
    for (const key of cadreSearchAttributes) {
      expect({ name: key.name, type: listed.get(key.name) }).toEqual({
        name: key.name,
        type: indexedValueType[key.type as keyof typeof indexedValueType],
      });
    }
  } finally {
    await connection.close();
  }
}

describe('shared test server', () => {
  test('answers at the address global setup published, with Cadre search attributes registered', async () => {
    await expectCadreSearchAttributes(testAddress(), testNamespace());
  });
});

// With TEMPORAL_ADDRESS set, startDevServer uses that server and the CLI may not even be built.
const describeEmbedded = process.env.TEMPORAL_ADDRESS ? describe.skip : describe;

describeEmbedded('embedded dev server', () => {
  let dataDir: string;
  let server: DevServer | undefined;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-dev-server-'));
  });

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('keeps workflows started before a restart when given a database file', async () => {
    const dbFile = path.join(dataDir, 'temporal.db');
    const workflowId = `persistence-probe-${Date.now()}`;

    let startedAt = Date.now();
    server = await startDevServer({ port: 0, dbFile, headless: true });
    process.stdout.write(
      `[cadre test] dev server with a db file ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`,
    );
    expect(server.external).toBe(false);
    expect(server.uiUrl).toBeUndefined();
    await expectCadreSearchAttributes(server.address, server.namespace);

    let connection = await Connection.connect({ address: server.address });
    try {
      // Nobody polls this task queue, so the workflow stays running; setting the attributes proves they are usable.
      await new Client({ connection, namespace: server.namespace }).workflow.start('noSuchWorkflow', {
        workflowId,
        taskQueue: `nobody-polls-${workflowId}`,
        typedSearchAttributes: [
          { key: agentNameKey, value: 'persistence-probe' },
          { key: agentDepthKey, value: 0 },
        ],
      });
    } finally {
      await connection.close();
    }
    await server.stop();
    server = undefined;

    startedAt = Date.now();
    server = await startDevServer({ port: 0, dbFile, headless: true });
    process.stdout.write(
      `[cadre test] dev server restarted on the same db in ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`,
    );
    connection = await Connection.connect({ address: server.address });
    try {
      const description = await new Client({ connection, namespace: server.namespace }).workflow
        .getHandle(workflowId)
        .describe();
      expect(description.type).toBe('noSuchWorkflow');
      expect(description.status.name).toBe('RUNNING');
      expect(description.typedSearchAttributes.get(agentNameKey)).toBe('persistence-probe');
    } finally {
      await connection.close();
    }
    await expectCadreSearchAttributes(server.address, server.namespace);
  });

  test('serves the Web UI on the requested port unless headless', async () => {
    server = await startDevServer({ port: 0, uiPort: 0, dbFile: null });
    expect(server.uiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(server.uiUrl as string);
    expect(response.ok).toBe(true);
  });
});
