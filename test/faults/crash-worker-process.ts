/**
 * A worker in its own process for the tool crash tests: serves agents whose `charge` tool appends
 * `<pid> <idempotency key> <epoch ms>` to RUNS_FILE when it starts. The first run then hangs (the
 * test kills its worker); any later run returns at once. `charger` runs it at least once (the
 * default); `once-charger` at most once; `approved-once-charger` at most once, after an approval.
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

const chargeCall = { toolCalls: [{ toolName: 'charge', input: { amount: 42 }, toolCallId: 'charge-1' }] };
const once = { charge: { atMostOnce: true } };

serveAgentsInThisProcess(address, taskQueue, [
  defineAgent({ name: 'charger', model: reactiveModel(chargeCall), tools: { charge } }),
  defineAgent({ name: 'once-charger', model: reactiveModel(chargeCall), tools: { charge }, toolOptions: once }),
  defineAgent({
    name: 'approved-once-charger',
    model: reactiveModel(chargeCall),
    tools: { charge: { ...charge, needsApproval: true } },
    toolOptions: once,
  }),
]);
