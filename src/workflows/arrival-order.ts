/**
 * A queue for handler work that must apply one call at a time, in the order the calls arrived:
 * each call's work starts once the work of the call before it has settled, whether it succeeded
 * or failed. The first call's work starts at once, so a run whose handler is called once, or
 * never, makes no promise for the queue (each promise costs the workflow sandbox a stack trace).
 *
 * @returns a function that queues `work` and resolves or rejects as `work` does.
 */
export function arrivalOrder(): <T>(work: () => Promise<T>) => Promise<T> {
  let previous: Promise<unknown> | undefined;
  return <T>(work: () => Promise<T>): Promise<T> => {
    const turn = previous ? previous.then(work) : work();
    previous = turn.catch(() => undefined);
    return turn;
  };
}
