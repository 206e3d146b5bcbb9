import { ConfigurationError } from '../../src/errors';
import { inFlightCallsOf } from '../../src/worker/local-calls';

describe("a worker's local calls, from its options", () => {
  it('leave no slots by default on a worker with the high-priority lane, whose high-priority runs have slots of their own', () => {
    expect(inFlightCallsOf({ agents: [] }, 'agents')?.options.maxHoldingBelowHigh).toBeUndefined();
    const given = { agents: [], localActivities: { reservedSlots: 10 } };
    expect(inFlightCallsOf(given, 'agents')?.options.maxHoldingBelowHigh).toBe(30);
  });

  it('leave a quarter of the workflow task slots to high-priority runs by default without the lane, from 20 slots up', () => {
    expect(inFlightCallsOf({ agents: [], highPriorityLane: false }, 'agents')?.options.maxHoldingBelowHigh).toBe(30);
    const slots = (count: number) =>
      inFlightCallsOf(
        { agents: [], highPriorityLane: false, workerOptions: { maxConcurrentWorkflowTaskExecutions: count } },
        'agents',
      )?.options.maxHoldingBelowHigh;
    expect(slots(20)).toBe(15);
    expect(slots(19)).toBeUndefined();
    expect(slots(4)).toBeUndefined();
  });

  it('leave the given slots, and none with 0', () => {
    const options = { agents: [], workerOptions: { maxConcurrentWorkflowTaskExecutions: 20 } };
    expect(inFlightCallsOf({ ...options, localActivities: { reservedSlots: 12 } }, 'agents')?.options).toMatchObject({
      maxHoldingBelowHigh: 8,
    });
    const none = inFlightCallsOf({ ...options, localActivities: { reservedSlots: 0 } }, 'agents');
    expect(none?.options.maxHoldingBelowHigh).toBeUndefined();
  });

  it('refuse a reserve of every slot or of a part of one, saying what the worker has', () => {
    const options = { agents: [], workerOptions: { maxConcurrentWorkflowTaskExecutions: 8 } };
    for (const reservedSlots of [8, -1, 1.5]) {
      const attempt = () => inFlightCallsOf({ ...options, localActivities: { reservedSlots } }, 'agents');
      expect(attempt).toThrow(ConfigurationError);
      expect(attempt).toThrow(
        'it must be a whole number from 0 to 7 (the worker has 8 workflow task slots). Leave it out for the default, 0 here.',
      );
    }
  });

  it('leave no slots on a worker whose tuner sizes them, and refuse a reserve there', () => {
    const tuner = { workflowTaskSlotSupplier: { type: 'fixed-size', numSlots: 10 } } as never;
    expect(inFlightCallsOf({ agents: [], workerOptions: { tuner } }, 'agents')?.options.maxHoldingBelowHigh).toBe(
      undefined,
    );
    expect(() =>
      inFlightCallsOf({ agents: [], workerOptions: { tuner }, localActivities: { reservedSlots: 2 } }, 'agents'),
    ).toThrow('Set workerOptions.maxConcurrentWorkflowTaskExecutions instead of the tuner');
  });

  it('refuse a hand-off window past the workflow task timeout', () => {
    expect(() => inFlightCallsOf({ agents: [], localActivities: { handOffAfterMs: 9000 } }, 'agents')).toThrow(
      'localActivities.handOffAfterMs is 9000; it must be more than 0 and at most 8000',
    );
  });

  it('are off on a worker without a workflow cache, unless asked for', () => {
    expect(inFlightCallsOf({ agents: [], workerOptions: { maxCachedWorkflows: 0 } }, 'agents')).toBeUndefined();
  });
});
