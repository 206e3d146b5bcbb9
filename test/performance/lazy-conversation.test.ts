import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { tool } from 'ai';
import { z } from 'zod';
import { ConversationIo } from '../../src/activities/conversation-io';
import { createActivities } from '../../src/activities/create-activities';
import type { RunToolArgs, RunToolResult } from '../../src/activities/types';
import type { DescribedAgentSpec } from '../../src/agents/agent-spec-table';
import { AgentRegistry } from '../../src/agents/agent-registry';
import { defineAgent } from '../../src/agents/define-agent';
import { toolOutputKey } from '../../src/protocol/pending-message';
import { SqliteConversationStore } from '../../src/store';
import { childSpecFrom } from '../../src/workflows/child-spec';
import { demoModels } from '../helpers/demo-models';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-lazy-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const runs = { plain: 0, reader: 0 };
let seen: unknown[] = [];
const agent = defineAgent({
  name: 'lazy',
  model: 'demo:scripted',
  tools: {
    plain: tool({
      description: 'Needs only its input.',
      inputSchema: z.object({}),
      execute: async () => {
        runs.plain += 1;
        return 'plain';
      },
    }),
    reader: tool({
      description: 'Reads the conversation.',
      inputSchema: z.object({}),
      execute: async (_input, { messages }) => {
        runs.reader += 1;
        seen = messages;
        return `read ${messages.length}`;
      },
    }),
    sneaky: tool({
      description: 'Reaches options without declaring them.',
      inputSchema: z.object({}),
      execute: async (...args: unknown[]) => (args[1] as { messages: unknown[] }).messages.length,
    }),
  },
  subagents: { helper: { agent: 'lazy-helper', description: 'Helps.', toolFilter: ['only'], model: 'demo:other' } },
});
const helper = defineAgent({ name: 'lazy-helper', model: 'demo:scripted', tools: {} });
const act = () => tool({ description: 'Acts once approved.', inputSchema: z.object({}), execute: async () => 'acted' });
/** Approved under a status: re-checking the call needs no messages. */
const approvedByStatus = defineAgent({
  name: 'lazy-status',
  model: 'demo:scripted',
  tools: { act: act() },
  toolApproval: { act: 'user-approval' },
});
let policySaw: unknown[] | undefined;
/** Approved under a function of the messages: re-checking the call reads them. */
const approvedByFunction = defineAgent({
  name: 'lazy-policy',
  model: 'demo:scripted',
  tools: { act: act() },
  toolApproval: {
    act: async (_input, { messages }) => {
      policySaw = messages;
      return 'user-approval' as const;
    },
  },
});

describe('conversation reads of tools', () => {
  let store: SqliteConversationStore;
  let conversations: ConversationIo;
  let activities: ReturnType<typeof createActivities>;
  let registry: AgentRegistry;
  const conversation = { id: 'lazy-1@run', workflowId: 'lazy-1' };
  const environment = new MockActivityEnvironment();
  const call = (toolName: string): RunToolArgs => ({
    agent: 'lazy',
    workflowId: conversation.workflowId,
    conversation,
    promptLength: 1,
    toolCallId: `${toolName}-call`,
    toolName,
    input: {},
  });
  /**
   * Runs `agent`'s approved `act` call, re-checked as after a human's approval, in a conversation
   * another worker wrote (this one has nothing cached), and counts the store reads it made.
   */
  const runApprovedCall = async (agentName: string) => {
    const fresh = { id: `${agentName}@run`, workflowId: agentName };
    await store.ensureConversation(fresh);
    await store.appendMessages(fresh.id, 0, [{ role: 'user', content: 'hi' }]);
    const before = conversations.stats.reads;
    const approved = { ...call('act'), agent: agentName, revalidate: true, conversation: fresh };
    const result: RunToolResult = await environment.run(activities.runTool, approved);
    return { result, reads: conversations.stats.reads - before };
  };

  beforeAll(async () => {
    store = await SqliteConversationStore.open(path.join(folder, 'cadre.db'));
    const models = demoModels();
    registry = new AgentRegistry([agent, helper, approvedByStatus, approvedByFunction], models);
    conversations = new ConversationIo(store, 0);
    activities = createActivities({
      agents: registry,
      models,
      conversations,
      // Runs on the store never query their workflow.
    });
    // Written by another worker: this one has nothing cached, so a tool that asks for messages reads the store.
    await store.ensureConversation(conversation);
    await store.appendMessages(conversation.id, 0, [{ role: 'user', content: 'hi' }]);
  });
  afterAll(async () => {
    await store.close();
  });

  it('does not read the conversation for a tool whose execute declares no options', async () => {
    const reads = conversations.stats.reads;
    await environment.run(activities.runTool, call('plain'));
    expect(conversations.stats.reads).toBe(reads);
    expect(runs.plain).toBe(1);
  });

  it('fails the attempt when the read fails, so Temporal retries it, and the tool then runs once', async () => {
    const read = jest.spyOn(store, 'readMessages').mockRejectedValueOnce(new Error('connection reset by the store'));
    await expect(environment.run(activities.runTool, call('reader'))).rejects.toThrow('connection reset by the store');
    expect(runs.reader).toBe(0);
    const retried: RunToolResult = await environment.run(activities.runTool, call('reader'));
    expect(retried.stored).toMatchObject({ preview: 'read 1' });
    expect(runs.reader).toBe(1);
    expect(seen).toEqual([{ role: 'user', content: 'hi' }]);
    read.mockRestore();
  });

  it('runs an approved call whose policy is a status without reading the conversation', async () => {
    const { result, reads } = await runApprovedCall('lazy-status');
    expect(result.stored).toMatchObject({ preview: 'acted' });
    expect(reads).toBe(0);
  });

  it('reads the conversation for an approved call whose policy is a function, which sees the messages', async () => {
    const { result, reads } = await runApprovedCall('lazy-policy');
    expect(result.stored).toMatchObject({ preview: 'acted' });
    expect(reads).toBe(1);
    expect(policySaw).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('tells a tool that reaches messages without declaring options how to declare them', async () => {
    const result: RunToolResult = await environment.run(activities.runTool, call('sneaky'));
    const output = (await store.getRecord(conversation.id, toolOutputKey('sneaky-call'))) as
      { output: unknown } | undefined;
    expect(result.stored?.outputType).toBe('error-text');
    expect(JSON.stringify(output)).toContain('declares no options parameter');
  });

  it('gives a child the spec describeAgent would give it, from its parent', async () => {
    const parent: DescribedAgentSpec = await environment.run(activities.describeAgent, { agent: 'lazy' });
    const overrides = { toolFilter: ['only'], modelRoute: 'demo:other', persona: 'terse' };
    const described: DescribedAgentSpec = await environment.run(activities.describeAgent, {
      agent: 'lazy-helper',
      overrides,
    });
    expect(childSpecFrom(parent, 'lazy-helper', overrides)).toEqual(described);
    expect(childSpecFrom(parent, 'unknown-agent')).toBeUndefined();
  });
});
