import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { defineAgent } from '../../src/agents/define-agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { lastToolResult, reactiveModel, type ScriptedStep, userTexts } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';

/** Opens when the test has closed the child behind the parent's back. */
let childClosed: () => void = () => undefined;
const closed = new Promise<void>((resolve) => {
  childClosed = resolve;
});

const agents = [
  defineAgent({ name: 'helper-agent', model: reactiveModel({ text: 'ready' }) }),
  defineAgent({
    name: 'boss',
    subagents: { helper: { agent: 'helper-agent', description: 'Helps.', backgroundMode: 'continuable' } },
    model: reactiveModel(
      (options: LanguageModelV4CallOptions): ScriptedStep =>
        userTexts(options).at(-1)?.startsWith('[subagent')
          ? { text: 'noted' }
          : { toolCalls: [{ toolName: 'helper', input: { task: 'get ready' } }] },
      async (options: LanguageModelV4CallOptions): Promise<ScriptedStep> => {
        if (lastToolResult(options).startsWith('started subagent')) {
          // The parent still takes the child for running; the test closes it before the message goes out.
          await closed;
          return {
            toolCalls: [{ toolName: 'send_message', input: { subagent_id: 'helper-1', message: 'more work' } }],
          };
        }
        return { text: 'done' };
      },
    ),
  }),
];

describe('runtime tools racing a child that closed', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
  });
  afterAll(async () => {
    await env.stop();
  });

  it('answers send_message to a child that just closed with an Error result, and the parent run completes', async () => {
    const handle = await env.client.start('boss', { prompt: 'delegate' });
    await waitFor(
      async () => (await handle.children()).some((child) => (child.settlements ?? 0) >= 1),
      'the child to settle once',
    );
    const [child] = await handle.children();
    // Terminated, the child never reports its end: the parent learns of it only when the signal fails.
    await env.client.client.workflow.getHandle(child?.workflowId ?? '').terminate('closed behind the parent’s back');
    childClosed();
    expect((await handle.result()).stopReason).toBe('completed');
    const results = (await handle.transcript()).messages.flatMap((message) =>
      message.role === 'tool' ? message.content.filter((part) => part.type === 'tool-result') : [],
    );
    expect(results.find((part) => part.toolName === 'send_message')?.output).toEqual({
      type: 'error-text',
      value: expect.stringMatching(
        /^Error: subagent helper-1 closed before the message arrived \(.+\); start a new one\.$/,
      ),
    });
  });
});
