import type { AgentHandle } from '../client/agent-handle';
import type { AgentEvent } from '../protocol/agent-events';
import { oneLine, previewValue } from '../protocol/text-preview';

const cut = (value: unknown, max = 160): string => oneLine(previewValue(value, max * 4), max);

/** Lines a person reads for one event of the tree, indented by the run's depth. */
export function describeEvent(event: AgentEvent): string[] {
  const pad = '  '.repeat(event.depth + 1);
  switch (event.type) {
    case 'user-message':
      return event.depth === 0 ? [`> ${event.text}`] : [`${pad}task: ${cut(event.text)}`];
    case 'text':
      return event.text.split('\n').map((line) => `${pad}${line}`);
    case 'tool-call':
      return [`${pad}-> ${event.toolName}(${cut(event.input, 100)})`];
    case 'tool-result':
      return [
        `${pad}<- ${event.toolName}${event.outputType.startsWith('error') ? ' (error)' : event.outputType === 'execution-denied' ? ' (denied)' : ''}: ${cut(event.preview)}`,
      ];
    case 'approval-requested':
      return [
        `${pad}? approval requested: ${event.approvalId} ${event.toolName}(${cut(event.input, 100)})${event.reason ? ` (${event.reason})` : ''}`,
      ];
    case 'approval-decided':
      return [
        `${pad}${event.approved ? 'approved' : 'denied'} ${event.approvalId} by ${event.by}${event.reason ? `: ${event.reason}` : ''}`,
      ];
    case 'subagent-started':
      return [
        `${pad}[${event.agent}] subagent '${event.toolName}' started (depth ${event.childDepth}, ${event.childWorkflowId})`,
      ];
    case 'subagent-finished':
      return [`${pad}[${event.toolName}] ${event.stopReason}`];
    default:
      return [];
  }
}

/** Prints the events of a run and its subagents as they happen, until the whole tree has finished. */
export async function followEvents(handle: AgentHandle, write: (line: string) => void): Promise<void> {
  const hint = setTimeout(
    () =>
      write(
        '  (no worker has answered yet: is `npm run dev` or `npm run cadre -- worker` running against this server?)',
      ),
    10_000,
  );
  try {
    // Whole step texts read best at a terminal; deltas are for UIs that render partial text.
    for await (const event of handle.stream({ textDeltas: false })) {
      if (event.type === 'text-delta') continue;
      clearTimeout(hint);
      for (const line of describeEvent(event)) write(line);
    }
  } finally {
    clearTimeout(hint);
  }
}
