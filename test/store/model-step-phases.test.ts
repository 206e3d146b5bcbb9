import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tool } from 'ai';
import { z } from 'zod';
import { ConversationIo } from '../../src/activities/conversation-io';
import type { ActivityDependencies } from '../../src/activities/dependencies';
import type { RecordedCall } from '../../src/activities/step-call';
import { judgeResponse, responseWrite } from '../../src/activities/step-judgement';
import { prepareStepScene } from '../../src/activities/step-scene';
import type { RunModelStepArgs } from '../../src/activities/types';
import type { AnyAgentDefinition } from '../../src/agents/agent-definition';
import { AgentRegistry } from '../../src/agents/agent-registry';
import { defineAgent } from '../../src/agents/define-agent';
import { modelResponseKey } from '../../src/protocol/pending-message';
import { SqliteConversationStore } from '../../src/store';
import { reactiveModel } from '../helpers/scripted-model';
import { demoModels } from '../helpers/demo-models';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-phases-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const lookup = tool({
  description: 'Looks up.',
  inputSchema: z.object({ q: z.string() }),
  execute: async () => 'found',
});
const plain = defineAgent({ name: 'plain', model: reactiveModel('unused'), tools: { lookup } });
const watched = defineAgent({
  name: 'watched',
  model: reactiveModel('unused'),
  tools: { lookup },
  onStepFinish: () => {},
});

/** The model's answer to step 1: one call of `lookup`. */
const calledLookup: RecordedCall = {
  responseMessages: [
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'lookup', input: { q: 'rome' } }],
    },
  ],
  toolCalls: [{ toolCallId: 'call-1', toolName: 'lookup', input: { q: 'rome' } }],
  text: '',
  finishReason: 'tool-calls',
  usage: { inputTokens: 12, outputTokens: 3 },
};

describe("a model step's phases, on a real SQLite store and no Temporal", () => {
  let store: SqliteConversationStore;
  let deps: ActivityDependencies;

  beforeAll(async () => {
    store = await SqliteConversationStore.open(path.join(folder, 'cadre.db'));
    const models = demoModels();
    deps = { agents: new AgentRegistry([plain, watched], models), models, conversations: new ConversationIo(store) };
  });
  afterAll(async () => {
    await store.close();
  });

  /** Step 1 of a new run of `agent`, whose prompt is in the store. */
  async function firstStep(agent: AnyAgentDefinition, workflowId: string): Promise<RunModelStepArgs> {
    const args: RunModelStepArgs = {
      agent: agent.name,
      modelRoute: `agent:${agent.name}`,
      workflowId,
      step: 1,
      transcriptLength: 1,
      conversation: { id: `${workflowId}@run`, workflowId },
      writes: { from: 0, messages: [{ role: 'user', content: 'where is rome?' }] },
    };
    await deps.conversations.applyWrites(args);
    return args;
  }

  it("reads the scene once: the prompt from the store, and the agent's tools as the model sees them", async () => {
    const args = await firstStep(plain, 'phases-scene');
    const scene = await prepareStepScene(deps, args, plain);
    expect(scene.messages).toEqual([{ role: 'user', content: 'where is rome?' }]);
    expect(Object.keys(scene.tools)).toEqual(['lookup']);
    expect(scene.tools.lookup?.execute).toBeUndefined();
    expect(scene.view().steps).toEqual([]);
  });

  it('judges a response no agent code runs on without writing it: it is recorded with the step', async () => {
    const args = await firstStep(plain, 'phases-deferred');
    const scene = await prepareStepScene(deps, args, plain);
    const key = modelResponseKey(1, 1);
    const judged = await judgeResponse(deps, args, scene, calledLookup, responseWrite(args, calledLookup, key, []));
    expect(judged.step.toolCalls.map((call) => call.toolName)).toEqual(['lookup']);
    expect(judged.deferred?.records.map((record) => record.key)).toEqual([key]);
    expect(await deps.conversations.get(args.conversation, key)).toBeUndefined();
  });

  it("records a response before the agent's own code runs on it, so a retried step reuses it instead of calling again", async () => {
    const args = await firstStep(watched, 'phases-early');
    const scene = await prepareStepScene(deps, args, watched);
    const key = modelResponseKey(1, 1);
    const judged = await judgeResponse(deps, args, scene, calledLookup, responseWrite(args, calledLookup, key, []));
    expect(judged.deferred).toBeUndefined();
    expect(await deps.conversations.get(args.conversation, key)).toMatchObject({
      text: '',
      finishReason: 'tool-calls',
    });
  });
});
