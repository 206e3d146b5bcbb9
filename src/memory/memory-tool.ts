import { type Tool, tool } from 'ai';
import { z } from 'zod';
import type { RuntimeContext } from '../agents/agent-definition';
import type { MemoryFiles } from '../store/memory-files';
import { defaultMemoryLimits, isMutation, type MemoryCommand, runMemoryCommand } from './memory-commands';
import type { AgentMemoryOptions } from './memory-options';
import { memoryScopeOf } from './memory-scope-of';
import { requireOptionalPeer } from '../peers/peer-check';
import type * as Anthropic from '@ai-sdk/anthropic';

/** The memory tool's name, the one Anthropic's models are trained on. */
export const memoryToolName = 'memory';

/**
 * The commands of the memory tool, as one flat object schema for models without Anthropic's
 * provider tool (function parameters must be an object); each command's fields are checked when it runs.
 */
export const memoryCommandSchema = z.object({
  command: z.enum(['view', 'create', 'str_replace', 'insert', 'delete', 'rename']),
  path: z.string().optional().describe('The file or directory under /memories (every command but rename).'),
  view_range: z
    .array(z.number().int())
    .length(2)
    .optional()
    .describe('view: [start, end] lines of a file; end -1 reads to the end.'),
  file_text: z.string().optional().describe('create: the content of the new file.'),
  old_str: z.string().optional().describe('str_replace: the exact text to replace; it must occur once.'),
  new_str: z.string().optional().describe('str_replace: the text that replaces it.'),
  insert_line: z.number().int().optional().describe('insert: insert after this line; 0 inserts at the top.'),
  insert_text: z.string().optional().describe('insert: the text to insert.'),
  old_path: z.string().optional().describe('rename: the file or directory to move.'),
  new_path: z.string().optional().describe('rename: where it goes.'),
});

const description =
  'Your memory: a directory of files under /memories that persists across conversations. ' +
  'ALWAYS view /memories before anything else to find earlier progress and what you know about the user. ' +
  'Record what is worth keeping as you go (view, create, str_replace, insert, delete, rename). ' +
  'Keep it organised and up to date; your context may be reset at any moment.';

/** Where a memory tool finds its files and scope when it runs (in Cadre's tool activity). */
export interface MemoryToolContext {
  files: () => MemoryFiles;
  agent: string;
  options: AgentMemoryOptions;
  kind: 'anthropic' | 'function';
}

/**
 * The `memory` tool of an agent: Anthropic's provider-defined `memory_20250818` or a function tool
 * with the same commands and result texts. Mutations run once per tool call: the store records the
 * call's idempotency key with the change, so a retried activity returns the first result.
 */
export function memoryTool(context: MemoryToolContext): Tool {
  const execute = async (
    input: MemoryCommand,
    options: { toolCallId: string; context?: unknown; idempotencyKey?: string },
  ): Promise<string> => {
    const scope = memoryScopeOf(context.agent, context.options, (options.context ?? {}) as RuntimeContext);
    const limits = {
      maxFileBytes: context.options.maxFileBytes ?? defaultMemoryLimits.maxFileBytes,
      maxScopeBytes: context.options.maxScopeBytes ?? defaultMemoryLimits.maxScopeBytes,
    };
    const files = context.files();
    if (!isMutation(input)) {
      return await runMemoryCommand(
        {
          list: (prefix) => files.list(scope, prefix),
          read: (path) => files.read(scope, path),
          write: () => Promise.reject(new Error('view does not write')),
          remove: () => Promise.reject(new Error('view does not write')),
          totalBytes: () => Promise.resolve(0),
        },
        input,
        limits,
      );
    }
    const mutationId = options.idempotencyKey ?? options.toolCallId;
    return await files.mutate(scope, mutationId, (view) => runMemoryCommand(view, input, limits));
  };
  if (context.kind === 'anthropic') {
    const { anthropic } = requireOptionalPeer<typeof Anthropic>(
      '@ai-sdk/anthropic',
      "The memory tool of an agent on an 'anthropic:' model",
    );
    return anthropic.tools.memory_20250818({ execute: (input, options) => execute(input as MemoryCommand, options) });
  }
  return tool({
    description,
    inputSchema: memoryCommandSchema,
    execute: (input, options) => execute(input as MemoryCommand, options as Parameters<typeof execute>[1]),
  });
}
