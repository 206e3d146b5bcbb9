import { LiveFollower } from '../../src/client/live-follower';
import type { LiveBatch } from '../../src/store/live-deltas';

function batch(cursor: number, step: number, attempt: number, text: string, opens = false): LiveBatch {
  return { cursor, workflowId: 'run', step, attempt, opens, deltas: [{ kind: 'text', delta: text }] };
}

describe('live follower', () => {
  it('passes a step’s text through, then only the rest the recorded text adds', () => {
    const live = new LiveFollower(false);
    expect(live.accept(batch(1, 1, 1, 'Hel', true), 0).delta?.delta).toBe('Hel');
    expect(live.accept(batch(2, 1, 1, 'lo'), 0)).toEqual({ delta: expect.objectContaining({ delta: 'lo' }) });
    expect(live.record('run', 0, 1, 'Hello world')).toMatchObject({ type: 'text-delta', delta: ' world' });
    // A batch of the recorded step read late is dropped: the text event carried it.
    expect(live.accept(batch(3, 1, 1, 'late'), 0)).toEqual({});
  });

  it('resets a step when another attempt opens, and when the recorded text does not continue what was shown', () => {
    const live = new LiveFollower(false);
    live.accept(batch(1, 2, 1, 'wrong', true), 0);
    expect(live.accept(batch(2, 2, 2, 'right', true), 0)).toEqual({
      reset: { type: 'step-reset', workflowId: 'run', depth: 0, step: 2, attempt: 2 },
      delta: expect.objectContaining({ delta: 'right' }),
    });
    live.accept(batch(3, 3, 1, 'partial', true), 0);
    expect(live.record('run', 0, 3, 'other answer')).toMatchObject({ type: 'step-reset', step: 3 });
  });

  it('resets on a retry’s first batch after a resume, whose reader may have shown the failed attempt', () => {
    expect(new LiveFollower(true).accept(batch(9, 1, 2, 'again', true), 0).reset).toMatchObject({ attempt: 2 });
    expect(new LiveFollower(false).accept(batch(9, 1, 2, 'again', true), 0).reset).toBeUndefined();
  });
});
