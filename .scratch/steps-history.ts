import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../src/agents/define-agent';
import { createAgentTestEnvironment, reactiveModel } from '../src/testing';

async function main() {
  let n = 0;
  const agent = defineAgent({
    name: 'steps',
    streaming: false,
    maxSteps: 10,
    tools: { noop: tool({ description: 'noop', inputSchema: z.object({}), execute: async () => 'ok' }) },
    model: reactiveModel({ toolCalls: [{ toolName: 'noop', input: {} }] }, () => (n++ < 3 ? { toolCalls: [{ toolName: 'noop', input: {} }] } : 'done')),
  });
  const env = await createAgentTestEnvironment({ agents: [agent], timeSkipping: false, store: 'sqlite:/tmp/h15/s.db' } as never);
  try {
    const handle = await env.client.start('steps', { prompt: 'go' });
    await handle.result();
    const history = await env.env.client.workflow.getHandle(handle.workflowId).fetchHistory();
    for (const e of history.events ?? []) {
      const type = String(e.eventType);
      const attrs = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields;
      const act = e.activityTaskScheduledEventAttributes?.activityType?.name;
      const marker = e.markerRecordedEventAttributes?.markerName;
      const input = e.activityTaskScheduledEventAttributes?.input?.payloads?.[0]?.data;
      const result = e.activityTaskCompletedEventAttributes?.result?.payloads?.[0]?.data;
      const text = input ?? result;
      console.log(e.eventId?.toString(), type, act ?? '', attrs ? Object.keys(attrs).join(',') : '', marker ?? '', text ? `${text.length}B ${Buffer.from(text).toString().slice(0, 900)}` : '');
    }
  } finally {
    await env.stop?.();
    process.exit(0);
  }
}
main();
