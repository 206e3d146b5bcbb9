import { generateText, isStepCount, streamText, tool, type ToolSet } from 'ai';
import { z } from 'zod';
import { DemoModel, demoLabel } from '../../src/cli/demo/model';

/** Tools that record the inputs they get and answer with them. */
function recording(calls: Array<{ tool: string; input: unknown }>, specs: Record<string, z.ZodObject>): ToolSet {
  return Object.fromEntries(
    Object.entries(specs).map(([name, inputSchema]) => [
      name,
      tool({
        description: descriptions[name] ?? `The ${name} tool.`,
        inputSchema,
        execute: async (input: unknown) => {
          calls.push({ tool: name, input });
          return name === 'list_files' ? ['notes/old.txt', 'todo.md'] : `${name} done`;
        },
      }),
    ]),
  );
}

const descriptions: Record<string, string> = {
  list_files: 'Lists the files of the workspace.',
  read_file: 'Reads a file of the workspace.',
  delete_file: 'Deletes a file of the workspace.',
  pay_invoice: 'Pays an invoice.',
  current_time: 'The current date and time in a time zone.',
  text_stats: 'Counts the words and characters of a text.',
  greet: 'Greets someone by name.',
  copy_file: 'Copies a file.',
};

const fileTools = {
  list_files: z.object({}),
  read_file: z.object({ path: z.string().describe('file name, e.g. notes.txt') }),
  delete_file: z.object({ path: z.string().describe('file name, e.g. old.log') }),
  pay_invoice: z.object({ amount: z.number().describe('amount in euros'), recipient: z.string() }),
};
const clockTools = {
  current_time: z.object({ timeZone: z.string().describe('IANA time zone, e.g. Europe/Paris') }),
  text_stats: z.object({ text: z.string() }),
};

async function run(specs: Record<string, z.ZodObject>, prompt: string, instructions?: string) {
  const calls: Array<{ tool: string; input: unknown }> = [];
  const result = await generateText({
    model: new DemoModel(),
    tools: recording(calls, specs),
    ...(instructions ? { instructions } : {}),
    prompt,
    stopWhen: isStepCount(10),
  });
  const steps = result.steps.map((step) => step.toolCalls.map((call) => call.toolName));
  return { calls, steps, text: result.text };
}

describe('the demo model picks tool inputs from the message', () => {
  it('lists, then reads, then deletes the path the message names, and never pays for it', async () => {
    const { calls, steps, text } = await run(fileTools, 'Please delete the file notes/old.txt');
    expect(steps).toEqual([['list_files'], ['read_file'], ['delete_file'], []]);
    expect(calls).toEqual([
      { tool: 'list_files', input: {} },
      { tool: 'read_file', input: { path: 'notes/old.txt' } },
      { tool: 'delete_file', input: { path: 'notes/old.txt' } },
    ]);
    expect(text).toBe(
      `${demoLabel} Deleted notes/old.txt.\n` +
        '- list_files: notes/old.txt, todo.md\n' +
        '- read_file(notes/old.txt): read_file done\n' +
        '- delete_file(notes/old.txt): delete_file done',
    );
  });

  it('reads a named file without deleting it when the message does not ask to delete', async () => {
    const { calls } = await run(fileTools, 'What is in todo.md?');
    expect(calls).toEqual([{ tool: 'read_file', input: { path: 'todo.md' } }]);
  });

  it('takes a time zone named as an IANA id or a city, and counts words only when asked', async () => {
    expect((await run(clockTools, 'What time is it in Europe/Paris?')).calls).toEqual([
      { tool: 'current_time', input: { timeZone: 'Europe/Paris' } },
    ]);
    expect((await run(clockTools, "What's the time in New York?")).calls).toEqual([
      { tool: 'current_time', input: { timeZone: 'America/New_York' } },
    ]);
    const both = await run(clockTools, 'What time is it in Asia/Tokyo? Also count the words of this question.');
    expect(both.steps).toEqual([['current_time', 'text_stats'], []]);
    expect(both.calls).toEqual([
      { tool: 'current_time', input: { timeZone: 'Asia/Tokyo' } },
      { tool: 'text_stats', input: { text: 'What time is it in Asia/Tokyo? Also count the words of this question.' } },
    ]);
  });

  it('asks the time in UTC when the message asks the time but names no zone', async () => {
    expect((await run(clockTools, 'What time is it?')).calls).toEqual([
      { tool: 'current_time', input: { timeZone: 'UTC' } },
    ]);
  });

  it('pays the amount and recipient a message names', async () => {
    const { calls, text } = await run(fileTools, 'Pay 120 EUR to ACME Corp for the March invoice');
    expect(calls).toEqual([{ tool: 'pay_invoice', input: { amount: 120, recipient: 'ACME Corp' } }]);
    expect(text).toContain(`${demoLabel} Paid 120 to ACME Corp.`);
    expect((await run(fileTools, 'pay Alice €35.50')).calls).toEqual([
      { tool: 'pay_invoice', input: { amount: 35.5, recipient: 'Alice' } },
    ]);
  });

  it('deletes and pays in one step, after listing and reading, when a message asks for both', async () => {
    const instructions = 'You manage the files of a small workspace and pay invoices.';
    const { steps, calls } = await run(fileTools, 'Delete old.log and pay 5 EUR to ACME', instructions);
    expect(steps).toEqual([['list_files'], ['read_file'], ['delete_file', 'pay_invoice'], []]);
    expect(calls.slice(2)).toEqual([
      { tool: 'delete_file', input: { path: 'old.log' } },
      { tool: 'pay_invoice', input: { amount: 5, recipient: 'ACME' } },
    ]);
  });

  it('does not pay when the message names no amount, and says what was missing', async () => {
    const { calls, text } = await run({ pay_invoice: fileTools.pay_invoice }, 'Please pay the invoice');
    expect(calls).toEqual([]);
    expect(text).toBe(
      `${demoLabel} Your message ("Please pay the invoice") names nothing my tools need, so I called none.\n` +
        '- pay_invoice needs an amount (e.g. 120 EUR) and a recipient (e.g. to ACME)',
    );
  });

  it('calls fewer tools when the message names nothing they need', async () => {
    const { calls } = await run({ ...fileTools, ...clockTools }, 'Hello there');
    expect(calls).toEqual([]);
    const files = await run(fileTools, 'Which files do I have?');
    expect(files.calls).toEqual([{ tool: 'list_files', input: {} }]);
  });

  it('looks around first only when that is about the same things as the rest of the work', async () => {
    const instructions = 'You manage the files of a small workspace and pay invoices.';
    expect((await run(fileTools, 'Pay 80 EUR to ACME', instructions)).steps).toEqual([['pay_invoice'], []]);
    expect((await run(fileTools, 'Please delete old.log', instructions)).steps).toEqual([
      ['list_files'],
      ['read_file'],
      ['delete_file'],
      [],
    ]);
    expect((await run(fileTools, 'hello', instructions)).steps).toEqual([['list_files'], []]);
  });

  it('fills two fields of one kind in the order the message names them', async () => {
    const copy = {
      copy_file: z.object({ from: z.string().describe('source path'), to: z.string().describe('target path') }),
    };
    expect((await run(copy, 'Copy a/b.txt to c/d.txt')).calls).toEqual([
      { tool: 'copy_file', input: { from: 'a/b.txt', to: 'c/d.txt' } },
    ]);
  });

  it('greets the person a message names, and takes no part of a path or zone for a name', async () => {
    const greet = { greet: z.object({ name: z.string() }) };
    const instructions = 'Greet the person by name using the greet tool.';
    expect((await run(greet, 'Say hello to Ada', instructions)).calls).toEqual([
      { tool: 'greet', input: { name: 'Ada' } },
    ]);
    expect((await run(greet, 'Greet whoever lives in Europe/Paris or reads Notes.txt', instructions)).calls).toEqual(
      [],
    );
  });

  it('gives free text to a tool its instructions name, as a lead gives a task to a researcher', async () => {
    const research = { history_research: z.object({ task: z.string(), run_in_background: z.boolean().optional() }) };
    const { calls } = await run(
      research,
      'durable agents on temporal',
      'Send history_research out, then write the report.',
    );
    expect(calls).toEqual([{ tool: 'history_research', input: { task: 'durable agents on temporal' } }]);
  });

  it('stops after a failed call and says what it did not do', async () => {
    const calls: string[] = [];
    const failing: ToolSet = {
      read_file: tool({
        description: 'Reads a file.',
        inputSchema: fileTools.read_file,
        execute: async (): Promise<string> => {
          calls.push('read_file');
          throw new Error("ENOENT: no such file 'gone.txt'");
        },
      }),
      delete_file: tool({
        description: 'Deletes a file.',
        inputSchema: fileTools.delete_file,
        execute: async () => {
          calls.push('delete_file');
          return 'deleted';
        },
      }),
    };
    const result = await generateText({
      model: new DemoModel(),
      tools: failing,
      prompt: 'delete gone.txt',
      stopWhen: isStepCount(10),
    });
    expect(calls).toEqual(['read_file']);
    expect(result.text).toBe(
      `${demoLabel} read_file of gone.txt failed. So I stopped there and did not call delete_file.\n` +
        "- read_file(gone.txt): error: ENOENT: no such file 'gone.txt'",
    );
  });

  it('streams the same script through streamText', async () => {
    const calls: Array<{ tool: string; input: unknown }> = [];
    const result = streamText({
      model: new DemoModel(),
      tools: recording(calls, clockTools),
      prompt: 'What time is it in Tokyo?',
      stopWhen: isStepCount(5),
    });
    expect(await result.text).toBe(`${demoLabel} current_time(Asia/Tokyo): current_time done`);
    expect(calls).toEqual([{ tool: 'current_time', input: { timeZone: 'Asia/Tokyo' } }]);
  });
});
