import { userInfo } from 'node:os';
import { withDecidingClient } from './client-decision';
import { ConfigurationError } from '../../errors';
import { describeAttention } from '../../protocol/attention-types';

/** Options of `cadre retry`. */
export interface RetryOptions {
  /** The failure to decide (`attention-3-1`); default every one waiting in the tree. */
  id?: string;
  /** Skip the failed tool call instead: the model gets an error result naming who skipped it. */
  skip?: boolean;
  /** Fail the run with the original error instead. */
  fail?: boolean;
  by?: string;
  reason?: string;
}

/**
 * `cadre retry <workflowId> [--id <attentionId>] [--skip | --fail]`: decides failures that wait for
 * a person in the run and its subagents (agents with `onFailure: 'wait'`). Returns 0 when every
 * decision applied, 1 when one was refused (the reason is printed).
 */
export async function retryCommand(
  workflowId: string,
  options: RetryOptions,
  write: (line: string) => void,
): Promise<number> {
  if (options.skip && options.fail) {
    throw new ConfigurationError('Choose --skip or --fail, not both (neither retries the failed step or tool call).');
  }
  return await withDecidingClient(write, async (client) => {
    const handle = client.getHandle(workflowId);
    const decision = {
      by: options.by ?? process.env.USER ?? userInfo().username,
      ...(options.id ? { attentionId: options.id } : {}),
      ...(options.reason ? { reason: options.reason } : {}),
    };
    const decided = options.skip
      ? await handle.skip(decision)
      : options.fail
        ? await handle.failRun(decision)
        : await handle.retry(decision);
    const verb = options.skip ? 'Skipped' : options.fail ? 'Failed' : 'Retrying';
    for (const request of decided) {
      write(`${verb} ${request.attentionId}: ${describeAttention(request)} of ${request.workflowId}.`);
    }
  });
}
