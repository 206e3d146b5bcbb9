import { assistant } from '../../examples/assistant/agent';
import { analyst, archivist, concierge, leadResearcher } from '../../examples/research/agent';
import { defaultStartPrompt } from '../../src/cli/commands/start';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';

type Handle = Awaited<ReturnType<AgentTestEnv['client']['start']>>;

/** The tool calls of a finished run, in order: name and input. */
async function toolCallsOf(handle: Handle): Promise<unknown[]> {
  return (await handle.transcript()).messages.flatMap((message) =>
    message.role === 'assistant' && Array.isArray(message.content)
      ? message.content.flatMap((part) => (part.type === 'tool-call' ? [[part.toolName, part.input]] : []))
      : [],
  );
}

describe('the assistant and research examples on the demo model', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv([assistant, leadResearcher, archivist, analyst, concierge]);
  });
  afterAll(async () => {
    await env.stop();
  });

  it("answers npm start's prompt with the time in Asia/Tokyo and the question's word count, in one step", async () => {
    const handle = await env.client.start('assistant', { prompt: defaultStartPrompt });
    const result = await handle.result();
    expect(await toolCallsOf(handle)).toEqual([
      ['current_time', { timeZone: 'Asia/Tokyo' }],
      ['text_stats', { text: defaultStartPrompt }],
    ]);
    expect(result.text).toMatch(
      /^\[demo model: scripted, not an LLM\] I called current_time and text_stats:\n- current_time\(Asia\/Tokyo\): timeZone: Asia\/Tokyo; now: .+\n- text_stats: words: 13; characters: 69$/,
    );
  });

  it('asks only the time when asked the time in a city', async () => {
    const handle = await env.client.start('assistant', { prompt: 'What time is it in Paris?' });
    await handle.result();
    expect(await toolCallsOf(handle)).toEqual([['current_time', { timeZone: 'Europe/Paris' }]]);
  });

  it('sends both researchers out with the topic, and each searches its table for it', async () => {
    const handle = await env.client.start('research', { prompt: 'durable agents on temporal' });
    const result = await handle.result();
    expect(await toolCallsOf(handle)).toEqual([
      ['history_research', { task: 'durable agents on temporal' }],
      ['figures_research', { task: 'durable agents on temporal' }],
    ]);
    expect(result.text).toMatch(
      /^\[demo model: scripted, not an LLM\] I called history_research and figures_research:\n- history_research: search_archive: Temporal began as Uber Cadence .+\n- figures_research: lookup_figures: Temporal Cloud serves .+$/,
    );
  });

  it('starts the scout in the background, answers at once, and relays its report when it settles', async () => {
    const handle = await env.client.start('concierge', { prompt: 'history of durable execution' });
    const result = await handle.result();
    expect((await toolCallsOf(handle))[0]).toEqual(['scout', { task: 'history of durable execution' }]);
    expect(result.text).toBe(
      '[demo model: scripted, not an LLM] A background subagent reported back:\n' +
        '[subagent scout-1 settled: completed]\nFinal message:\n' +
        '[demo model: scripted, not an LLM] search_archive: Durable execution records every step in an event history and replays it after a crash.',
    );
  });
});
