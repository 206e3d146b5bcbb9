import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { readUIMessageStream, tool, type UIMessage, type UIMessageChunk } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { lastToolResult, type ScriptedStep } from '../helpers/scripted-model';

/** How often each tool of the chat agents ran, by tool and input. */
export const executions: Record<string, number> = {};

/** Words of the greeting the chat agent streams one by one. */
export const greeting = 'Hello! I am the file manager of this chat, and this answer streams word by word.';

/** The last user text of a model call. */
function lastUserText(options: LanguageModelV4CallOptions): string {
  const user = options.prompt.filter((message) => message.role === 'user').at(-1);
  if (!user || typeof user.content === 'string') return '';
  return user.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ');
}

/** A scripted step; `wordDelayMs` slows its text down (live text reaches pages on heartbeats, about every 3 s). */
export type ChatStep = ScriptedStep & { wordDelayMs?: number };

/**
 * A model that answers as `react` says and streams text word by word with `wordDelayMs` between
 * words, so a page sees the text grow.
 */
export function chatModel(
  react: (options: LanguageModelV4CallOptions) => ChatStep | Promise<ChatStep>,
  wordDelayMs = 20,
  name = 'chat',
): MockLanguageModelV4 {
  let calls = 0;
  const parts = async (options: LanguageModelV4CallOptions) => {
    const step = await react(options);
    calls += 1;
    const list: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
    if (step.text) {
      list.push({ type: 'text-start', id: 't' });
      for (const word of step.text.match(/\S+\s*/g) ?? []) list.push({ type: 'text-delta', id: 't', delta: word });
      list.push({ type: 'text-end', id: 't' });
    }
    (step.toolCalls ?? []).forEach((call, index) =>
      list.push({
        type: 'tool-call',
        toolCallId: call.toolCallId ?? `call-${calls}-${index}`,
        toolName: call.toolName,
        input: JSON.stringify(call.input),
      }),
    );
    list.push({
      type: 'finish',
      finishReason: { unified: step.toolCalls?.length ? 'tool-calls' : 'stop', raw: undefined },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 5, text: 5, reasoning: 0 },
      },
    });
    return { list, delay: step.wordDelayMs ?? wordDelayMs };
  };
  return new MockLanguageModelV4({
    provider: 'test',
    modelId: name,
    doStream: async (options) => {
      const { list, delay } = await parts(options);
      return {
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          async start(controller) {
            for (const part of list) {
              if (part.type === 'text-delta') await new Promise((resolve) => setTimeout(resolve, delay));
              controller.enqueue(part);
            }
            controller.close();
          },
        }),
      };
    },
  });
}

/** A file manager for chats: `delete <name>` asks to delete it (needs a human), anything else gets a greeting. */
export const chatFiles = defineAgent({
  name: 'chat-files',
  instructions: 'You manage files.',
  tools: {
    delete_file: tool({
      description: 'Deletes a file.',
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        executions[`delete_file:${path}`] = (executions[`delete_file:${path}`] ?? 0) + 1;
        return `deleted ${path}`;
      },
    }),
  },
  toolApproval: { delete_file: { type: 'user-approval', reason: 'Deleting a file cannot be undone' } },
  model: chatModel((options) => {
    const last = options.prompt.at(-1);
    if (last?.role === 'tool') {
      const result = lastToolResult(options);
      return { text: result.startsWith('deleted') ? `Done: ${result}.` : `I did not delete it (${result}).` };
    }
    const match = /delete (\S+)/.exec(lastUserText(options));
    if (match) return { toolCalls: [{ toolName: 'delete_file', input: { path: match[1] } }] };
    return { text: greeting, wordDelayMs: 400 };
  }),
});

/**
 * Holds `search_archive` until a test has seen it running (open unless a test holds it), so a page
 * can observe the child's progress however slow the machine is.
 */
export const archiveGate = {
  opened: Promise.resolve(),
  release: () => {},
  /** Makes the next searches wait until `release()`. */
  hold(): void {
    this.opened = new Promise<void>((resolve) => (this.release = resolve));
  },
};

/** Searches a tiny archive, slowly enough for a page to see it work, then summarises. */
export const chatArchivist = defineAgent({
  name: 'chat-archivist',
  instructions: 'You research.',
  tools: {
    search_archive: tool({
      description: 'Searches the archive.',
      inputSchema: z.object({ query: z.string() }),
      execute: async ({ query }) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await archiveGate.opened;
        return `Temporal began as Cadence (${query}).`;
      },
    }),
  },
  model: chatModel((options) =>
    options.prompt.at(-1)?.role === 'tool'
      ? { text: 'Findings: Temporal began as Uber Cadence in 2016 and was forked in 2019.' }
      : { toolCalls: [{ toolName: 'search_archive', input: { query: 'temporal history' } }] },
  ),
});

/** A lead that hands research to the archivist and reports what the archivist's summary says. */
export const chatResearch = defineAgent({
  name: 'chat-research',
  instructions: 'You write reports.',
  subagents: {
    research: {
      agent: 'chat-archivist',
      description: 'Researches a topic.',
      toModelOutput: ({ text }) => `SUMMARY ONLY: ${text.split(' ').slice(0, 6).join(' ')}`,
    },
  },
  model: chatModel((options) =>
    options.prompt.at(-1)?.role === 'tool'
      ? { text: `Report: ${lastToolResult(options)}` }
      : { toolCalls: [{ toolName: 'research', input: { task: 'the history of Temporal' } }] },
  ),
});

/**
 * An agent whose first step reaches every final state a tool part has: an output (one fast, one
 * slow), an error, a denial by policy and a request that times out into a denial.
 */
export const chatStates = defineAgent({
  name: 'chat-states',
  instructions: 'You show every state.',
  tools: {
    list_files: tool({
      description: 'Lists files.',
      inputSchema: z.object({}),
      execute: async () => ['notes/old.txt'],
    }),
    read_file: tool({
      description: 'Reads a file, slowly.',
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        return `contents of ${path}`;
      },
    }),
    broken: tool({
      description: 'Always fails.',
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new Error('the disk is on fire');
      },
    }),
    format_disk: tool({
      description: 'Formats the disk.',
      inputSchema: z.object({}),
      execute: async () => 'formatted',
    }),
    wipe_disk: tool({ description: 'Wipes the disk.', inputSchema: z.object({}), execute: async () => 'wiped' }),
  },
  toolApproval: {
    format_disk: { type: 'denied', reason: 'Formatting is never allowed' },
    wipe_disk: 'user-approval',
  },
  approvalTimeout: '4s',
  model: chatModel((options) =>
    options.prompt.at(-1)?.role === 'tool'
      ? { text: 'All calls settled.' }
      : {
          toolCalls: [
            { toolName: 'list_files', input: {} },
            { toolName: 'read_file', input: { path: 'notes/old.txt' } },
            { toolName: 'broken', input: {} },
            { toolName: 'format_disk', input: {} },
            { toolName: 'wipe_disk', input: {} },
          ],
        },
  ),
});

/** Every agent the chat tests serve. */
export const chatAgents = [chatFiles, chatArchivist, chatResearch, chatStates];

/** The approval secret the chat tests' worker signs with. */
export const chatSecret = 'cadre-chat-test-secret-0123456789-abcdef';

/** The UI message chunks of a streamed chat response (server-sent events). */
export async function readChunks(response: Response): Promise<UIMessageChunk[]> {
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice('data: '.length)) as UIMessageChunk);
}

/** The assistant message a page builds from these chunks, starting from `message`. */
export async function assemble(chunks: UIMessageChunk[], message?: UIMessage): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks.filter((item) => item.type !== 'error')) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last = message;
  for await (const next of readUIMessageStream({ stream, message, terminateOnError: true })) last = next;
  return last as UIMessage;
}
