import { asSchema, type FlexibleSchema, tool } from 'ai';
import { z } from 'zod';
import { modelTools } from '../../src/activities/model-tools';
import { validateWithSchema } from '../../src/agents/validate-with-schema';
import { defineAgent } from '../../src/agents/define-agent';
import { runtimeToolNames } from '../../src/protocol/runtime-tool-names';
import { runtimeToolSchemas } from '../../src/protocol/runtime-tool-schemas';
import { runtimeToolCall } from '../../src/workflows/runtime-tools';

const parent = defineAgent({
  name: 'parent',
  subagents: {
    research: { agent: 'child', description: 'Researches.', modelSelection: { routes: ['test:a'] } },
    helper: { agent: 'child', description: 'Helps.', backgroundMode: 'continuable' },
    quiet: { agent: 'child', description: 'Never in the background.', enableRunInBackground: false },
  },
});
const tools = modelTools(parent);

/** What the model step does with a call (the AI SDK validates its input against the tool's schema). */
async function validate(toolName: string, input: unknown) {
  const schema = tools[toolName]?.inputSchema as FlexibleSchema<unknown>;
  const result = await validateWithSchema(input, schema);
  return result.success ? { ok: true, value: result.value } : { ok: false, error: result.error.message };
}

describe('runtime and subagent tool arguments, checked by the model step with the schemas the model reads', () => {
  it('accepts a job_output call and keeps its optional fields', async () => {
    expect(await validate('job_output', { job_id: 'research-1', wait: true, timeout_seconds: 30 })).toEqual({
      ok: true,
      value: { job_id: 'research-1', wait: true, timeout_seconds: 30 },
    });
  });

  it('rejects a job_output call without a job_id, or with a wait that is not positive', async () => {
    expect(await validate('job_output', { wait: true })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/job_id/),
    });
    expect(await validate('job_output', { job_id: 'x', timeout_seconds: 0 })).toMatchObject({ ok: false });
  });

  it('rejects a job_kill whose job_id is a number and a send_message with neither field', async () => {
    expect(await validate('job_kill', { job_id: 7 })).toMatchObject({ ok: false });
    const refused = await validate('send_message', {});
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/subagent_id[\s\S]*message/) });
  });

  it('keeps an unlisted run_in_background so the workflow can refuse it clearly', async () => {
    expect(await validate('quiet', { task: 'find it', run_in_background: 'yes' })).toEqual({
      ok: true,
      value: { task: 'find it', run_in_background: 'yes' },
    });
  });

  it('rejects a subagent call without a task, or with a reasoning effort outside low, medium and high', async () => {
    expect(await validate('research', { run_in_background: true })).toMatchObject({ ok: false });
    expect(await validate('research', { task: 't', reasoning_effort: 'max' })).toMatchObject({ ok: false });
  });

  it('gives the model the very schemas the runtime tools are known by', () => {
    for (const name of Object.values(runtimeToolNames)) {
      const given = tools[name]?.inputSchema as FlexibleSchema<unknown>;
      expect(asSchema(given).jsonSchema).toEqual(
        asSchema(runtimeToolSchemas[name] as FlexibleSchema<unknown>).jsonSchema,
      );
    }
  });

  it("converts each tool's input schema to JSON Schema once, not on every model step", async () => {
    const inputSchema = z.object({ path: z.string().describe('Where.'), depth: z.number().int().optional() });
    const agent = defineAgent({
      name: 'reader',
      tools: { read: tool({ description: 'Reads.', inputSchema, execute: async () => 'ok' }) },
      subagents: { helper: { agent: 'child', description: 'Helps.' } },
    });
    const jsonOf = (name: string) =>
      asSchema(modelTools(agent)[name]?.inputSchema as FlexibleSchema<unknown>).jsonSchema;
    // The AI SDK reads each tool's JSON Schema on every step: the same object each time, converted once.
    expect(jsonOf('read')).toBe(jsonOf('read'));
    expect(jsonOf('helper')).toBe(jsonOf('helper'));
    expect(jsonOf('read')).toEqual(asSchema(inputSchema).jsonSchema);
    const checked = await validateWithSchema({ path: 3 }, modelTools(agent).read?.inputSchema as FlexibleSchema<unknown>);
    expect(checked.success).toBe(false);
  });
});

describe('the workflow side of a runtime tool call', () => {
  it('takes the checked arguments as they are, an absent input as none', () => {
    expect(runtimeToolCall('job_kill', { job_id: 'research-1' })).toEqual({
      toolName: 'job_kill',
      args: { job_id: 'research-1' },
    });
    expect(runtimeToolCall('list_subagent_models', undefined)).toEqual({ toolName: 'list_subagent_models', args: {} });
  });

  it('lists the runtime tools when asked for one that does not exist', () => {
    expect(runtimeToolCall('job_pause', { job_id: 'x' })).toEqual({
      error:
        "Error: 'job_pause' is not a runtime tool. Runtime tools: job_output, job_kill, send_message, list_subagent_models.",
    });
  });
});
