import { arrivalOrder } from '../../src/workflows/arrival-order';

/** A promise with its resolvers, to settle work in the order a test chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('arrivalOrder', () => {
  it('starts the first call at once', () => {
    const inOrder = arrivalOrder();
    let started = false;
    void inOrder(async () => {
      started = true;
    });
    expect(started).toBe(true);
  });

  it('starts each call only after the call before it has settled', async () => {
    const inOrder = arrivalOrder();
    const log: string[] = [];
    const first = deferred<string>();
    const a = inOrder(async () => {
      log.push('a started');
      const value = await first.promise;
      log.push('a done');
      return value;
    });
    const b = inOrder(async () => {
      log.push('b started');
      return 'b';
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(['a started']);
    first.resolve('a');
    await expect(a).resolves.toBe('a');
    await expect(b).resolves.toBe('b');
    expect(log).toEqual(['a started', 'a done', 'b started']);
  });

  it('runs the next call after a call that failed, and the failure reaches only its own caller', async () => {
    const inOrder = arrivalOrder();
    const failed = inOrder(async () => {
      throw new Error('refused');
    });
    const next = inOrder(async () => 'applied');
    await expect(failed).rejects.toThrow('refused');
    await expect(next).resolves.toBe('applied');
  });
});
