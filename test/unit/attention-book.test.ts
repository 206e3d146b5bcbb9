import { AttentionBook } from '../../src/workflows/attention-book';

const failedStep = {
  workflowId: 'run-1',
  agent: 'patient',
  kind: 'model-step' as const,
  step: 2,
  errorType: 'ProviderRequestRejected',
  message: 'HTTP 401',
};
const failedTool = {
  ...failedStep,
  kind: 'tool' as const,
  toolCallId: 'call-1',
  toolName: 'charge',
  input: { amount: 5 },
  errorType: 'TimeoutFailure',
};

describe('the attention book', () => {
  it('numbers requests by step and by the count of the run, so ids never repeat', () => {
    const book = new AttentionBook();
    const first = book.open(failedStep, book.nextId(2), 't0');
    const second = book.open(failedStep, book.nextId(2), 't1');
    expect([first.attentionId, second.attentionId]).toEqual(['attention-2-1', 'attention-2-2']);
    expect(book.waiting()).toHaveLength(2);
  });

  it('applies one decision, then refuses another with who decided and when', () => {
    const book = new AttentionBook();
    const request = book.open(failedStep, book.nextId(2), 't0');
    book.resolve(request.attentionId, { action: 'retry', by: 'ops', at: 't1' });
    expect(request.status).toBe('retried');
    expect(book.waiting()).toEqual([]);
    expect(book.problemWith(request.attentionId, 'fail')).toEqual({
      type: 'AttentionNotWaiting',
      message:
        "Attention request 'attention-2-1' (model step 2) was already decided: retry by ops at t1. Each failure takes one decision.",
    });
  });

  it('refuses a skip of a model step but lets a tool call be skipped', () => {
    const book = new AttentionBook();
    const step = book.open(failedStep, book.nextId(2), 't0');
    const call = book.open(failedTool, book.nextId(2), 't0');
    expect(book.problemWith(step.attentionId, 'skip')?.type).toBe('InvalidAttentionDecision');
    expect(book.problemWith(call.attentionId, 'skip')).toBeUndefined();
    expect(book.resolve(call.attentionId, { action: 'skip', by: 'ops', at: 't1' }).status).toBe('skipped');
  });

  it('refuses an unknown id, an action that is not retry, fail or skip, and an id that is not a string', () => {
    const book = new AttentionBook();
    book.open(failedStep, book.nextId(2), 't0');
    expect(book.problemWith('attention-9-9', 'retry')?.message).toBe(
      "Unknown attention id 'attention-9-9'. Waiting: attention-2-1.",
    );
    expect(book.problemWith('attention-2-1', 'approve')?.message).toBe(
      "A decision's action is 'retry', 'fail' or 'skip'; got \"approve\".",
    );
    expect(book.problemWith(undefined, 'retry')?.type).toBe('InvalidAttentionDecision');
  });

  it('closes a request whose wait timed out as failed by cadre, and one whose wait was cancelled', () => {
    const book = new AttentionBook();
    const timedOut = book.open(failedStep, book.nextId(2), 't0');
    const cancelled = book.open(failedTool, book.nextId(2), 't0');
    book.timeOut(timedOut.attentionId, 't9', '1 hour');
    book.cancel(cancelled.attentionId);
    expect(timedOut).toMatchObject({ status: 'timed-out', resolution: { action: 'fail', by: 'cadre' } });
    expect(book.problemWith(cancelled.attentionId, 'retry')?.message).toBe(
      "Attention request 'attention-2-2' (tool 'charge' (call call-1) in step 2) no longer waits: its turn was interrupted or the run cancelled.",
    );
  });
});
