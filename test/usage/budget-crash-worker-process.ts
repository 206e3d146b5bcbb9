/**
 * A worker in its own process for the budget crash test: serves an agent with a budget of 3 model
 * calls whose every step calls `tick`, and one without a budget for its tenant's. Each scripted model call appends `model <pid>` to LOG_FILE; the third
 * call (the one that reaches the budget) hangs the first time, so the test can kill its worker mid-step.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { serveAgentsInThisProcess } from '../helpers/worker-process';
import { callTool, reactiveModel } from '../helpers/scripted-model';

Runtime.install({ logger: new DefaultLogger('ERROR') });
const [address, taskQueue, logFile] = process.argv.slice(2) as [string, string, string];

const modelCalls = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean).length : 0);
const logCall = async () => {
  const before = modelCalls();
  appendFileSync(logFile, `model ${process.pid}\n`);
  if (before === 2) await new Promise((resolve) => setTimeout(resolve, 600_000));
};
const step = async () => {
  await logCall();
  return callTool('tick', {});
};
const answer = async () => {
  await logCall();
  return 'done';
};

serveAgentsInThisProcess(address, taskQueue, [
  defineAgent({
    name: 'budget-crasher',
    model: reactiveModel(step, step, 'budget-crasher'),
    tools: { tick: tool({ description: 'Ticks.', inputSchema: z.object({}), execute: async () => 'ticked' }) },
    budget: { maxModelCalls: 3 },
  }),
  // No budget of its own: its tenant's budget (from the client) bounds it.
  defineAgent({
    name: 'tenant-crasher',
    model: reactiveModel(step, answer, 'tenant-crasher'),
    tools: { tick: tool({ description: 'Ticks.', inputSchema: z.object({}), execute: async () => 'ticked' }) },
  }),
]);
