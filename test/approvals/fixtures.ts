import { tool } from 'ai';
import { z } from 'zod';

/** How often each test tool really ran (an approval that is refused must leave it at zero). */
export const executions: Record<string, number> = {};

/** A tool that counts its runs and returns its input. */
export function countingTool(name: string) {
  return tool({
    description: `Test tool ${name}.`,
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => {
      executions[name] = (executions[name] ?? 0) + 1;
      return `${name} ran on ${path}`;
    },
  });
}

/** The parts of a transcript message, for assertions. */
export function partsOf(message: unknown): Array<Record<string, unknown>> {
  return ((message as { content: unknown }).content ?? []) as Array<Record<string, unknown>>;
}
