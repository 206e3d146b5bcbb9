import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { tool } from 'ai';
import { z } from 'zod';
import { ApprovalSigner } from '../../src/activities/approval-signer';
import { ConversationIo } from '../../src/activities/conversation-io';
import { createActivities } from '../../src/activities/create-activities';
import type { RunModelStepArgs, RunModelStepResult, RunToolArgs, RunToolResult } from '../../src/activities/types';
import { AgentRegistry } from '../../src/agents/agent-registry';
import { defineAgent } from '../../src/agents/define-agent';
import { SqliteConversationStore } from '../../src/store';
import { reactiveModel } from '../helpers/scripted-model';
import { demoModels } from '../helpers/demo-models';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-retried-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

let toolRuns = 0;
let modelCalls = 0;
const agent = defineAgent({
  name: 'retried',
  streaming: false,
  model: reactiveModel(
    { toolCalls: [{ toolName: 'append_line', input: { line: 'x' }, toolCallId: 'call-1' }] },
    undefined,
    'retried',
    () => {
      modelCalls += 1;
    },
  ),
  tools: {
    append_line: tool({
      description: 'Appends a line.',
      inputSchema: z.object({ line: z.string() }),
      execute: async ({ line }) => {
        toolRuns += 1;
        return `appended ${line}`;
      },
    }),
  },
});

describe('activities retried after they wrote to the store', () => {
  let store: SqliteConversationStore;
  let activities: ReturnType<typeof createActivities>;
  const conversation = { id: 'retried-1@run', workflowId: 'retried-1' };
  const environment = new MockActivityEnvironment();

  beforeAll(async () => {
    store = await SqliteConversationStore.open(path.join(folder, 'cadre.db'));
    const models = demoModels();
    activities = createActivities({
      agents: new AgentRegistry([agent], models),
      models,
      conversations: new ConversationIo(store),
      // Runs on the store never query their workflow.
      signer: new ApprovalSigner('a-secret-of-at-least-thirty-two-bytes!!'),
    });
  });
  afterAll(async () => {
    await store.close();
  });

  it('leave exactly one copy of each message and event, and pay for the model call once', async () => {
    const step: RunModelStepArgs = {
      agent: 'retried',
      modelRoute: 'agent:retried',
      workflowId: conversation.workflowId,
      step: 1,
      transcriptLength: 1,
      conversation,
      writes: { from: 0, messages: [{ role: 'user', content: 'add a line' }] },
      events: [{ type: 'user-message', text: 'add a line', seq: 0, at: '2026-11-30T00:00:00.000Z', depth: 0 } as never],
    };
    const first: RunModelStepResult = await environment.run(activities.runModelStep, step);
    // A retry of the same step (the worker died before its completion reached Temporal).
    const second = await environment.run(activities.runModelStep, step);
    expect(second).toEqual(first);
    expect(modelCalls).toBe(1);
    expect(first.assistant).toBeUndefined();
    expect(first.toolCalls.map((call) => call.toolCallId)).toEqual(['call-1']);

    const call: RunToolArgs = {
      agent: 'retried',
      workflowId: conversation.workflowId,
      conversation,
      promptLength: 1,
      toolCallId: 'call-1',
      toolName: 'append_line',
      input: { line: 'x' },
    };
    const output: RunToolResult = await environment.run(activities.runTool, call);
    const retried = await environment.run(activities.runTool, call);
    expect(retried).toEqual(output);
    expect(toolRuns).toBe(1);
    expect(output.stored).toMatchObject({ outputType: 'text', preview: 'appended x' });

    const commit = {
      conversation,
      writes: {
        from: 1,
        messages: [
          { role: 'stored' as const, key: first.assistantKey ?? '' },
          {
            role: 'tool' as const,
            content: [{ type: 'stored-tool-result' as const, toolCallId: 'call-1', toolName: 'append_line' }],
          },
        ],
      },
    };
    await environment.run(activities.commitConversation, commit);
    await environment.run(activities.commitConversation, commit);
    await environment.run(activities.commitConversation, { ...step, conversation });
    const page = await store.readMessages(conversation.id);
    expect(page.messages).toEqual([
      { role: 'user', content: 'add a line' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'append_line', input: { line: 'x' } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call-1',
            toolName: 'append_line',
            output: { type: 'text', value: 'appended x' },
          },
        ],
      },
    ]);
    expect((await store.readEvents(conversation.id)).events).toHaveLength(1);
  });
});
