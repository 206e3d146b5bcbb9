import { ApplicationFailure } from '@temporalio/activity';
import type { CadreErrorType } from '../protocol/error-types';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import { durationMs, timeoutsOf } from '../agents/timeout-settings';

/**
 * Aborts a streaming model call whose provider sends nothing within `ms` (`timeout.firstChunk`):
 * `signal` fires, and `failure` is the retryable error the attempt then fails with.
 */
export class FirstChunkWatch {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private fired = false;

  constructor(
    private readonly ms: number,
    private readonly label: string,
  ) {
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort(this.failure());
    }, ms);
  }

  /** Fires when the first chunk is late. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True once the first chunk was late and the call was aborted. */
  get expired(): boolean {
    return this.fired;
  }

  /** The first chunk arrived (or the call ended): the watch stops. */
  stop(): void {
    clearTimeout(this.timer);
  }

  /** The attempt's failure: retryable, so Temporal tries the step again. */
  failure(): ApplicationFailure {
    return ApplicationFailure.retryable(
      `${this.label} sent nothing for ${this.ms} ms after the request (timeout.firstChunk), so the attempt was aborted. ` +
        'The step is retried; raise timeout.firstChunk if the provider is slow to start.',
      'ModelFirstChunkTimeout' satisfies CadreErrorType,
    );
  }
}

/** The `firstChunk` option of a model call for an agent with `timeout.firstChunk`; nothing otherwise. */
export function firstChunkOption(
  definition: AnyAgentDefinition,
  modelRoute: string,
): { firstChunk?: { ms: number; label: string } } {
  const setting = timeoutsOf(definition.timeout).firstChunk;
  if (setting === undefined) return {};
  return {
    firstChunk: {
      ms: durationMs(definition.name, 'timeout.firstChunk', setting),
      label: `Model provider for '${modelRoute}'`,
    },
  };
}
