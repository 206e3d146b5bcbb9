import { ActivityFailure, ApplicationFailure, RetryState } from '@temporalio/common';
import { RunQueues } from '../../src/workflows/served-here';

/** A call's failure as the workflow sees it: the activity failed with `cause`. */
const failed = (cause: Error) =>
  new ActivityFailure('Activity task failed', 'runModelStep', '1', RetryState.NON_RETRYABLE_FAILURE, 'worker', cause);

/** The refusal of a worker that does not serve the agent, naming the queue the call reached. */
const refusedOn = (queue: string) =>
  failed(
    ApplicationFailure.create({
      type: 'AgentNotServedHere',
      nonRetryable: true,
      message: "This worker does not serve agent 'writer'",
      details: [queue],
    }),
  );

describe("a run's activity queues", () => {
  it("send every call to the workflow's own queue when the worker that described the run serves its agent", () => {
    expect(new RunQueues('main/writer', 'main').current).toBe('main');
  });

  it("send every call to the agent's queue when the run was described there", () => {
    expect(new RunQueues('main/writer').current).toBe('main/writer');
  });

  it("move to the agent's queue for good once a call reached a worker that does not serve the agent", () => {
    const queues = new RunQueues('main/writer', 'main');
    expect(queues.fallBackOn(refusedOn('main'))).toBe(true);
    expect(queues.current).toBe('main/writer');
    // A second call refused on the workflow's queue (it ran alongside the first) runs again too.
    expect(queues.fallBackOn(refusedOn('main'))).toBe(true);
    expect(queues.current).toBe('main/writer');
  });

  it("take a refusal on the agent's own queue as final, so a call is never sent round in circles", () => {
    const queues = new RunQueues('main/writer', 'main');
    expect(queues.fallBackOn(refusedOn('main/writer'))).toBe(false);
  });

  it('leave any other failure to the caller', () => {
    const queues = new RunQueues('main/writer', 'main');
    expect(queues.fallBackOn(failed(ApplicationFailure.create({ type: 'ProviderUnavailable', message: '503' })))).toBe(
      false,
    );
    expect(queues.fallBackOn(new Error('boom'))).toBe(false);
    expect(queues.current).toBe('main');
  });
});
