import { z } from 'zod';
import { runtimeToolNames } from './runtime-tool-names';

/** Input every subagent tool takes. */
export const subagentInputSchema = z.object({
  task: z.string().describe('The whole task for the subagent, with everything it needs to know.'),
});

/**
 * Input of one subagent tool: `{ task }`, plus `run_in_background` and the model choice when the
 * entry offers them. Unlisted fields are kept, so the workflow can refuse a forced run_in_background clearly.
 */
export function subagentCallSchema(offers: { runInBackground: boolean; modelSelection: boolean }) {
  let schema = subagentInputSchema.loose();
  if (offers.runInBackground) {
    schema = schema.extend({ run_in_background: z.boolean().optional().describe('Run it in the background.') });
  }
  if (offers.modelSelection) {
    schema = schema.extend({
      provider: z.string().optional().describe('Provider of the subagent model, e.g. openai.'),
      model: z.string().optional().describe('Model id (or a whole provider:model route).'),
      reasoning_effort: z
        .enum(['low', 'medium', 'high'])
        .optional()
        .describe('Reasoning effort for models that support it.'),
    });
  }
  return schema;
}

/**
 * Input of each runtime tool, keyed by tool name: the model reads these schemas and the workflow
 * parses every call with them, so the two never disagree.
 */
export const runtimeToolSchemas = {
  [runtimeToolNames.jobOutput]: z.object({
    job_id: z.string(),
    wait: z.boolean().optional().describe('Wait until the job is done.'),
    timeout_seconds: z.number().positive().optional().describe('Longest wait, in seconds (default 300).'),
  }),
  [runtimeToolNames.jobKill]: z.object({ job_id: z.string() }),
  [runtimeToolNames.sendMessage]: z.object({ subagent_id: z.string(), message: z.string() }),
  [runtimeToolNames.listSubagentModels]: z.object({}),
} as const;

/** A tool call's arguments as its schema parsed them, or the error text that tells the model what was wrong. */
export type ParsedArguments<T> = { ok: true; args: T } | { ok: false; error: string };

/** Parses a call's arguments (absent ones count as `{}`) with `schema`; never throws. */
export function parseToolArguments<Schema extends z.ZodType>(
  toolName: string,
  schema: Schema,
  input: unknown,
): ParsedArguments<z.output<Schema>> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return { ok: true, args: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.map(String).join('.');
    // zod says "Invalid input: expected string, received undefined"; the field name says more than the prefix.
    const what = issue.message.replace(/^Invalid input: /, '');
    return where ? `${where}: ${what}` : what;
  });
  return { ok: false, error: `Error: invalid arguments for ${toolName}: ${problems.join('; ')}` };
}
