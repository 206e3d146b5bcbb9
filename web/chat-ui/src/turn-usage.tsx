import type { UIMessage } from 'ai';

interface TurnUsageTotals {
  inputTokens: number;
  outputTokens: number;
  modelCalls: number;
  costUsd?: number;
}

const count = new Intl.NumberFormat('en-US');

/** The usage line of one turn: "1,234 tokens in · 210 out · 3 model calls · $0.0021", the cost only when it is known. */
export function usageLine(usage: TurnUsageTotals): string {
  const parts = [
    `${count.format(usage.inputTokens)} tokens in`,
    `${count.format(usage.outputTokens)} out`,
    `${count.format(usage.modelCalls)} model call${usage.modelCalls === 1 ? '' : 's'}`,
  ];
  if (usage.costUsd !== undefined) parts.push(`$${usage.costUsd.toFixed(4)}`);
  return parts.join(' · ');
}

/** A muted line under an assistant message with what the tree spent in its turn, once the turn's response settled. */
export function TurnUsage({ message }: { message: UIMessage }) {
  const usage = (message.metadata as { cadre?: { usage?: TurnUsageTotals } } | undefined)?.cadre?.usage;
  if (message.role !== 'assistant' || !usage) return null;
  return (
    <div className="muted turn-usage" data-testid="turn-usage">
      {usageLine(usage)}
    </div>
  );
}
