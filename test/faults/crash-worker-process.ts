/**
 * A worker in its own process for the tool crash test: serves one agent whose `charge` tool
 * appends `<pid> <idempotency key> <epoch ms>` to RUNS_FILE when it starts. The first run then
 * hangs (the test kills its worker); any later run returns at once.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { tool } from 'ai';
import { z } from 'zod';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { defineAgent } from '../../src/agents/define-agent';
import { idempotencyKeyOf } from '../../src/activities/idempotency-key';
import { serveAgentsInThisProcess } from '../helpers/worker-process';
import { reactiveModel } from '../helpers/scripted-model';

Runtime.install({ logger: new DefaultLogger('ERROR') });
const [address, taskQueue, runsFile] = process.argv.slice(2) as [string, string, string];

const charge = tool({
  description: 'Charges a card.',
  inputSchema: z.object({ amount: z.number() }),
  execute: async ({ amount }, options) => {
    const firstRun = !existsSync(runsFile) || readFileSync(runsFile, 'utf8').trim() === '';
    appendFileSync(runsFile, `${process.pid} ${idempotencyKeyOf(options)} ${Date.now()}\n`);
    if (firstRun) await new Promise((resolve) => setTimeout(resolve, 600_000));
    return `charged ${amount}`;
  },
});

serveAgentsInThisProcess(address, taskQueue, [
  defineAgent({
    name: 'charger',
    model: reactiveModel({ toolCalls: [{ toolName: 'charge', input: { amount: 42 }, toolCallId: 'charge-1' }] }),
    tools: { charge },
  }),
]);
