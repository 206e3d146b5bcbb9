/**
 * A worker in its own process for the budget crash test: serves an agent with a budget of 3 model
 * calls whose every step calls `tick`. Each model call appends `model <pid>` to LOG_FILE; the third
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
const step = async () => {
  const before = modelCalls();
  appendFileSync(logFile, `model ${process.pid}\n`);
  if (before === 2) await new Promise((resolve) => setTimeout(resolve, 600_000));
  return callTool('tick', {});
};

serveAgentsInThisProcess(address, taskQueue, [
  defineAgent({
    name: 'budget-crasher',
    model: reactiveModel(step, step, 'budget-crasher'),
    tools: { tick: tool({ description: 'Ticks.', inputSchema: z.object({}), execute: async () => 'ticked' }) },
    budget: { maxModelCalls: 3 },
  }),
]);
