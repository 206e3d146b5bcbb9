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
 * Input of each runtime tool, keyed by tool name: the model reads these schemas, and the model
 * step checks every call against them (the AI SDK validates tool input), so the workflow, which
 * does not load zod, receives only calls that fit.
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
