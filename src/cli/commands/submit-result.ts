import { userInfo } from 'node:os';
import { withDecidingClient } from './client-decision';
import { ConfigurationError } from '../../errors';

/** Options of `cadre submit-result`. */
export interface SubmitResultOptions {
  /** The tool failed on the client: the model sees an error result with this text. */
  error?: string;
  /** Who answered; default the user name. */
  by?: string;
  /** The run that made the call (a subagent's), when call ids repeat across the tree. */
  workflow?: string;
}

/**
 * `cadre submit-result <workflowId> <toolCallId> [json] [--error <text>]`: answers a call to a
 * client-side tool (a tool without `execute`) that the run, or a subagent below it, waits for.
 * Returns 0 when the run accepted the result, 1 when it refused it (the reason is printed).
 */
export async function submitResultCommand(
  workflowId: string,
  toolCallId: string,
  json: string | undefined,
  options: SubmitResultOptions,
  write: (line: string) => void,
): Promise<number> {
  const output = resultOf(json, options.error);
  return await withDecidingClient(write, async (client) => {
    const handle = client.getHandle(workflowId);
    const by = options.by ?? process.env.USER ?? userInfo().username;
    const target = { by, ...(options.workflow ? { workflowId: options.workflow } : {}) };
    const call =
      options.error !== undefined
        ? await handle.submitToolError(toolCallId, options.error, target)
        : await handle.submitToolResult(toolCallId, output, target);
    write(
      `Submitted ${options.error !== undefined ? 'an error' : 'the result'} of ${call.toolCallId} (${call.toolName}) in ${call.workflowId}.`,
    );
  });
}

/** The submitted output: the JSON argument parsed; none with `--error`. Exactly one of them is given. */
function resultOf(json: string | undefined, error: string | undefined): unknown {
  if (json !== undefined && error !== undefined) {
    throw new ConfigurationError(
      'Give the tool call either a result (the JSON argument) or an error (--error <text>), not both.',
    );
  }
  if (error !== undefined) return undefined;
  if (json === undefined) {
    throw new ConfigurationError(
      `Give the tool's result as JSON, e.g. cadre submit-result <workflowId> <toolCallId> '{"city":"Paris"}', or its failure with --error "<text>".`,
    );
  }
  try {
    return JSON.parse(json) as unknown;
  } catch {
    throw new ConfigurationError(
      `The result must be JSON: an object such as '{"city":"Paris"}', a number, or a string in double quotes ('"Paris"'), quoted for the shell; got ${json}.`,
    );
  }
}
