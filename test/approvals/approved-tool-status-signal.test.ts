import type { Context } from '@temporalio/activity';
import { Client, Connection } from '@temporalio/client';
import { signalRunningApprovedTool } from '../../src/activities/approved-tool-status';
import type { RunToolArgs } from '../../src/activities/types';
import { testAddress, testNamespace } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';

const args = (workflowId: string, statusSignalAfterMs?: number, toolCallId = 'call-1'): RunToolArgs => ({
  conversation: { id: `${workflowId}@run`, workflowId },
  agent: 'nobody',
  workflowId,
  promptLength: 1,
  toolCallId,
  toolName: 'deploy',
  input: {},
  revalidate: true,
  ...(statusSignalAfterMs !== undefined ? { statusSignalAfterMs } : {}),
});

describe("runTool's signal that an approved tool is still running", () => {
  let connection: Connection;
  let client: Client;
  const warnings: Array<{ message: string; meta?: Record<string, unknown> }> = [];
  // The activity's context as runTool sees it: the worker's client, and its logger.
  const context = () =>
    ({
      client,
      log: { warn: (message: string, meta?: Record<string, unknown>) => warnings.push({ message, meta }) },
    }) as unknown as Context;

  beforeAll(async () => {
    connection = await Connection.connect({ address: testAddress() });
    client = new Client({ connection, namespace: testNamespace() });
  });
  afterAll(async () => {
    await connection.close();
  });

  it('logs a signal the server refuses and never throws, so the tool goes on and its result stands', async () => {
    warnings.length = 0;
    const stop = signalRunningApprovedTool(context(), args('no-such-run-for-the-status-signal', 10));
    await waitFor(() => warnings.length === 1, 'the warning');
    stop();
    expect(warnings[0]?.message).toMatch(/its status follows when the tool ends/);
    expect(warnings[0]?.meta).toMatchObject({ toolCallId: 'call-1', error: expect.stringMatching(/not found/i) });
  });

  it('sends nothing for a call whose run does not hold back its status, or for a tool that ends first', async () => {
    warnings.length = 0;
    signalRunningApprovedTool(context(), args('no-such-run-for-the-status-signal'))();
    signalRunningApprovedTool(context(), args('no-such-run-for-the-status-signal', 10))();
    // A timer started after them with the same delay: once its refused signal is logged, theirs would have been too.
    const stop = signalRunningApprovedTool(context(), args('no-such-run-for-the-status-signal', 10, 'call-later'));
    await waitFor(() => warnings.length > 0, 'the later timer');
    stop();
    expect(warnings.map(({ meta }) => meta?.toolCallId)).toEqual(['call-later']);
  });
});
