/**
 * A worker in its own process, for the crash tests: serves one agent whose scripted model
 * appends a line to CALLS_FILE per call, so calls are counted across processes. With
 * CADRE_TEST_SLOW_POLICY_FILE set, the approval policy touches that file and then hangs, so a
 * test can kill the worker after the provider answered and before the step completed.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { defineAgent } from '../../src/agents/define-agent';
import { serveAgentsInThisProcess } from '../helpers/worker-process';
import { reactiveModel } from '../helpers/scripted-model';
import { countingTool } from './fixtures';
import { demoModels } from '../helpers/demo-models';

Runtime.install({ logger: new DefaultLogger('WARN') });
const [address, taskQueue, callsFile] = process.argv.slice(2) as [string, string, string];
const model = reactiveModel(
  { toolCalls: [{ toolName: 'remove', input: { path: '/var/log/old' }, toolCallId: 'rm-1' }] },
  undefined,
  'durable',
  () => appendFileSync(callsFile, `${process.pid}\n`),
);

async function approvalPolicy(): Promise<'user-approval'> {
  const slowPolicyFile = process.env.CADRE_TEST_SLOW_POLICY_FILE;
  if (slowPolicyFile) {
    writeFileSync(slowPolicyFile, `${process.pid}\n`);
    await new Promise((resolve) => setTimeout(resolve, 120_000));
  }
  return 'user-approval';
}

serveAgentsInThisProcess(
  address,
  taskQueue,
  [
    defineAgent({
      name: 'durable',
      model,
      tools: { remove: countingTool('remove') },
      toolApproval: { remove: approvalPolicy },
    }),
  ],
  demoModels(),
);
