import { HighLane } from '../../src/client/high-lane';

/** A lane of queue `q` whose pollers the test sets, counting the times the client asked. */
function laneOf(setting: boolean | undefined) {
  const server = { pollers: 0, asked: 0, fails: false, now: 0 };
  const lane = new HighLane({
    taskQueue: 'q',
    setting,
    workflowPollers: async (queue) => {
      expect(queue).toBe('q/@high');
      server.asked += 1;
      if (server.fails) throw new Error('unavailable');
      return server.pollers;
    },
    now: () => server.now,
  });
  return { lane, server };
}

const high = { priorityKey: 2 };
const first = { priorityKey: 1 };
const normal = { priorityKey: 3 };

describe('HighLane', () => {
  it('starts high and first-priority runs on the lane once a worker polls it, and the rest on the shared queue', async () => {
    const { lane, server } = laneOf(undefined);
    server.pollers = 1;
    expect(await lane.queueFor(high)).toBe('q/@high');
    expect(await lane.queueFor(first)).toBe('q/@high');
    expect(await lane.queueFor(normal)).toBe('q');
    expect(await lane.queueFor({ priorityKey: 4 })).toBe('q');
    // A run without a priority key runs at the server's default, normal.
    expect(await lane.queueFor({})).toBe('q');
    expect(server.asked).toBe(1);
  });

  it('starts every run on the shared queue while no worker polls the lane, and asks again after 2 s', async () => {
    const { lane, server } = laneOf(undefined);
    expect(await lane.queueFor(high)).toBe('q');
    server.pollers = 2;
    server.now = 1_999;
    expect(await lane.queueFor(high)).toBe('q');
    server.now = 2_000;
    expect(await lane.queueFor(high)).toBe('q/@high');
    expect(server.asked).toBe(2);
  });

  it('trusts a served lane for a minute, then asks again', async () => {
    const { lane, server } = laneOf(undefined);
    server.pollers = 1;
    expect(await lane.queueFor(high)).toBe('q/@high');
    server.pollers = 0;
    server.now = 59_999;
    expect(await lane.queueFor(high)).toBe('q/@high');
    server.now = 60_000;
    expect(await lane.queueFor(high)).toBe('q');
    expect(server.asked).toBe(2);
  });

  it('starts on the shared queue when the server cannot say, and asks once for starts at the same time', async () => {
    const { lane, server } = laneOf(undefined);
    server.fails = true;
    expect(await Promise.all([lane.queueFor(high), lane.queueFor(high)])).toEqual(['q', 'q']);
    expect(server.asked).toBe(1);
  });

  it('never asks when told: true starts on the lane, false on the shared queue', async () => {
    const on = laneOf(true);
    const off = laneOf(false);
    expect(await on.lane.queueFor(high)).toBe('q/@high');
    expect(await on.lane.queueFor(normal)).toBe('q');
    expect(await off.lane.queueFor(high)).toBe('q');
    expect(on.server.asked + off.server.asked).toBe(0);
  });
});
