import { memoryAgent } from '../../examples/memory/agent';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';

describe('the memory example on the demo model', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv([memoryAgent]);
  });
  afterAll(async () => {
    await env.stop();
  });

  it("keeps each user's notes across separate sessions and never mixes two users", async () => {
    const as = (userId: string) => ({ runtimeContext: { userId: `${userId}-${Date.now()}` } });
    const ada = as('ada');
    await env.client.run('memory', 'remember I prefer dark mode', ada);
    await env.client.run('memory', 'remember my editor is Neovim', ada);
    const recalled = await env.client.run('memory', 'what do you know about me?', ada);
    expect(recalled.text).toBe(
      '[demo model: scripted, not an LLM] From my notes (/memories/notes.md):\n- I prefer dark mode\n- my editor is Neovim',
    );
    const bob = await env.client.run('memory', 'what do you know about me?', as('bob'));
    expect(bob.text).toBe(
      '[demo model: scripted, not an LLM] I have no notes yet. Tell me "remember ..." and I will keep it.',
    );
  });
});
