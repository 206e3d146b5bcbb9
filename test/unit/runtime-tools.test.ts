import { defineAgent } from '../../src/agents/define-agent';
import { modelTools } from '../../src/activities/model-tools';
import { runtimeToolNames } from '../../src/protocol/runtime-tool-names';
import { parseToolArguments, runtimeToolSchemas, subagentCallSchema } from '../../src/protocol/runtime-tool-schemas';
import { parseRuntimeToolCall } from '../../src/workflows/runtime-tools';

describe('parseRuntimeToolCall', () => {
  it('accepts a job_output call and keeps its optional fields', () => {
    expect(parseRuntimeToolCall('job_output', { job_id: 'research-1', wait: true, timeout_seconds: 30 })).toEqual({
      toolName: 'job_output',
      args: { job_id: 'research-1', wait: true, timeout_seconds: 30 },
    });
  });

  it('names the missing field of a job_output call without a job_id', () => {
    expect(parseRuntimeToolCall('job_output', { wait: true })).toEqual({
      error: 'Error: invalid arguments for job_output: job_id: expected string, received undefined',
    });
  });

  it('refuses a job_output wait that is not positive', () => {
    const parsed = parseRuntimeToolCall('job_output', { job_id: 'research-1', timeout_seconds: 0 });
    expect(parsed).toEqual({
      error: expect.stringMatching(/^Error: invalid arguments for job_output: timeout_seconds: /),
    });
  });

  it('refuses a job_kill call whose job_id is a number', () => {
    expect(parseRuntimeToolCall('job_kill', { job_id: 7 })).toEqual({
      error: 'Error: invalid arguments for job_kill: job_id: expected string, received number',
    });
  });

  it('lists every problem of a send_message call with neither field', () => {
    expect(parseRuntimeToolCall('send_message', {})).toEqual({
      error:
        'Error: invalid arguments for send_message: subagent_id: expected string, received undefined; ' +
        'message: expected string, received undefined',
    });
  });

  it('accepts a send_message call to a continuable subagent', () => {
    expect(parseRuntimeToolCall('send_message', { subagent_id: 'helper-1', message: 'task two' })).toEqual({
      toolName: 'send_message',
      args: { subagent_id: 'helper-1', message: 'task two' },
    });
  });

  it('treats a list_subagent_models call without arguments as empty arguments', () => {
    expect(parseRuntimeToolCall('list_subagent_models', undefined)).toEqual({
      toolName: 'list_subagent_models',
      args: {},
    });
  });

  it('refuses arguments that are not an object', () => {
    expect(parseRuntimeToolCall('job_kill', 'research-1')).toEqual({
      error: 'Error: invalid arguments for job_kill: expected object, received string',
    });
  });

  it('lists the runtime tools when asked for one that does not exist', () => {
    expect(parseRuntimeToolCall('job_pause', { job_id: 'x' })).toEqual({
      error:
        "Error: 'job_pause' is not a runtime tool. Runtime tools: job_output, job_kill, send_message, list_subagent_models.",
    });
  });
});

describe('subagent call arguments', () => {
  const offers = { runInBackground: true, modelSelection: true };

  it('keeps an unlisted run_in_background so the workflow can refuse it clearly', () => {
    const parsed = parseToolArguments(
      'research',
      subagentCallSchema({ runInBackground: false, modelSelection: false }),
      {
        task: 'find it',
        run_in_background: 'yes',
      },
    );
    expect(parsed).toEqual({ ok: true, args: { task: 'find it', run_in_background: 'yes' } });
  });

  it('names the missing task of a subagent call', () => {
    expect(parseToolArguments('research', subagentCallSchema(offers), { run_in_background: true })).toEqual({
      ok: false,
      error: 'Error: invalid arguments for research: task: expected string, received undefined',
    });
  });

  it('refuses a reasoning effort outside low, medium and high', () => {
    const parsed = parseToolArguments('research', subagentCallSchema(offers), { task: 't', reasoning_effort: 'max' });
    expect(parsed).toEqual({
      ok: false,
      error: expect.stringMatching(/^Error: invalid arguments for research: reasoning_effort: /),
    });
  });
});

describe('runtime tool schemas', () => {
  it('are the very schemas the model reads', () => {
    const agent = defineAgent({
      name: 'parent',
      subagents: {
        research: { agent: 'child', description: 'Researches.', modelSelection: { routes: ['test:a'] } },
        helper: { agent: 'child', description: 'Helps.', backgroundMode: 'continuable' },
      },
    });
    const tools = modelTools(agent);
    for (const name of Object.values(runtimeToolNames)) {
      expect(tools[name]?.inputSchema).toBe(runtimeToolSchemas[name]);
    }
  });
});
