import { parseTotals, usageSince } from '../../src/chat/turn-usage';

describe("a chat turn's usage", () => {
  const at = (modelCalls: number, costUsd?: number) => ({
    inputTokens: 10 * modelCalls,
    outputTokens: 5 * modelCalls,
    cachedInputTokens: 0,
    modelCalls,
    ...(costUsd === undefined ? {} : { costUsd }),
  });

  it('is what the totals grew by, with a cost only when both readings know it', () => {
    expect(usageSince(at(2, 0.5), at(5, 1.25))).toEqual({ ...at(3), costUsd: 0.75 });
    expect(usageSince(at(2), at(5, 1.25))).toEqual(at(3));
    expect(usageSince(at(2, 0.5), at(5))).toEqual(at(3));
  });

  it('costs from zero when nothing was spent before, as in a new chat whose prices are known only later', () => {
    expect(usageSince(at(0), at(1, 0.003))).toEqual({ ...at(1), costUsd: 0.003 });
  });

  it('reads starting totals back from a message only when they are well formed', () => {
    expect(parseTotals(at(2, 0.5))).toEqual(at(2, 0.5));
    expect(parseTotals({ ...at(2), modelCalls: -1 })).toBeUndefined();
    expect(parseTotals({ ...at(2), inputTokens: '10' })).toBeUndefined();
    expect(parseTotals('10')).toBeUndefined();
    expect(parseTotals({ ...at(2), costUsd: Number.NaN })).toEqual(at(2));
  });
});
