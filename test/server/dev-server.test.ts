import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import {
  connectWhenReady,
  findFreePort,
  listCustomSearchAttributes,
  registerSearchAttributes,
  startDevServer,
  type DevServer,
} from '../../src/server';
import { findTemporalCli } from '../../src/server/paths';
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

  test('fails registering search attributes on a server that stopped answering once the wait is over, naming what got no answer', async () => {
    // Started here rather than by startDevServer, to have the process to freeze.
    const port = await findFreePort();
    const cli = findTemporalCli();
    const server = spawn(cli, ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--headless'], {
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => server.once('exit', resolve));
    try {
      const connection = await connectWhenReady({
        address: `127.0.0.1:${port}`,
        namespace: 'default',
        timeoutMs: 30_000,
      });
      try {
        // Frozen: its socket stays open and takes the calls, but nothing ever answers them.
        server.kill('SIGSTOP');
        const startedAt = Date.now();
        const failure = await registerSearchAttributes(connection, 'default', { timeoutMs: 3_000 }).then(
          () => undefined,
          (error: Error & { type?: string }) => ({ type: error.type, message: error.message }),
        );
        expect(failure).toEqual({
          type: 'TemporalUnreachable',
          message: expect.stringMatching(
            /^The Temporal server did not answer when asked to list search attributes \(4 DEADLINE_EXCEEDED: .*\)\. Check that it is up and not overloaded/,
          ) as string,
        });
        expect(Date.now() - startedAt).toBeGreaterThanOrEqual(3_000);
      } finally {
        server.kill('SIGCONT');
        await connection.close();
      }
    } finally {
      server.kill('SIGKILL');
      await exited;
    }
  }, 60_000);

  test('serves the Web UI on the requested port unless headless', async () => {
    server = await startDevServer({ port: 0, uiPort: 0, dbFile: null });
    expect(server.uiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(server.uiUrl as string);
    expect(response.ok).toBe(true);
  });
});
