import { interruptedEffectUnknown } from '../protocol/interrupted-call';
import type { AgentEvent } from '../protocol/agent-events';
import { oneLine, previewValue } from '../protocol/text-preview';
import { cadreCommand } from '../server/command-hints';

const cut = (value: unknown, max = 160): string => oneLine(previewValue(value, max * 4), max);

/** Indentation of a run's lines: one step per depth. */
export function padOf(depth: number): string {
  return '  '.repeat(depth + 1);
}

/** The label of a subagent's lines: its id within its parent (`research-1`), empty for the root. */
export function labelOf(event: { workflowId: string; depth: number }): string {
  if (event.depth === 0) return '';
  return `[${event.workflowId.slice(event.workflowId.lastIndexOf('/') + 1)}] `;
}

/** Lines a person reads for one event of the tree, indented by depth and labelled with the subagent's id. */
export function describeEvent(event: AgentEvent): string[] {
  const pad = `${padOf(event.depth)}${labelOf(event)}`;
  switch (event.type) {
    case 'user-message':
      return event.depth === 0 ? [`> ${event.text}`] : [`${pad}task: ${cut(event.text)}`];
    case 'text':
      return event.text.split('\n').map((line) => `${pad}${line}`);
    case 'tool-call':
      return [`${pad}-> ${event.toolName}(${cut(event.input, 100)})`];
    case 'tool-result':
      return [`${pad}<- ${event.toolName}${resultLabel(event.outputType, event.preview)}: ${cut(event.preview)}`];
    case 'approval-requested':
      return [
        `${pad}? approval requested: ${event.approvalId} ${event.toolName}(${cut(event.input, 100)})${event.reason ? ` (${event.reason})` : ''}`,
      ];
    case 'approval-decided':
      return [
        `${pad}${event.approved ? 'approved' : 'denied'} ${event.approvalId} by ${event.by}${event.reason ? `: ${event.reason}` : ''}`,
      ];
    case 'tool-result-awaited':
      return [
        `${pad}? waiting for a client's result: ${event.toolName}(${cut(event.input, 100)}) [${event.toolCallId}]`,
      ];
    case 'tool-result-submitted':
      return [`${pad}result of ${event.toolCallId} submitted by ${event.by}${event.isError ? ' (error)' : ''}`];
    case 'attention-needed':
      return [
        `${pad}! needs attention: ${event.attentionId} ${event.kind === 'tool' ? `tool ${event.toolName}` : `model step ${event.step}`} failed: ${cut(event.message, 240)}`,
        `${pad}  decide with: ${cadreCommand(`retry ${event.workflowId}`)}   (or add ${event.kind === 'tool' ? '--skip or --fail' : '--fail'})`,
      ];
    case 'attention-resolved':
      return [
        `${pad}${event.action === 'retry' ? 'retried' : event.action === 'skip' ? 'skipped' : 'failed'} ${event.attentionId} by ${event.by}${event.reason ? `: ${event.reason}` : ''}`,
      ];
    case 'subagent-started':
      return [
        `${pad}[${event.agent}] subagent '${event.toolName}' started (depth ${event.childDepth}, ${event.childWorkflowId})`,
      ];
    case 'subagent-finished':
      return [`${pad}[${event.toolName}] ${event.stopReason}`];
    case 'agent-changed':
      return [
        `${pad}! the agent's definition changed at step ${event.step} (${event.from} -> ${event.to}): a worker with another build ran it; turn on Worker Versioning to keep runs on their build`,
      ];
    case 'run-finished':
      // The root's failure is the command's own last word; a subagent's is shown where it happens.
      return event.status === 'failed' && event.depth > 0 ? [`${pad}failed: ${event.error ?? 'see Temporal UI'}`] : [];
    default:
      return [];
  }
}

/** How a tool result's line is marked: an at-most-once call cut off, an error, a denial, or nothing. */
function resultLabel(outputType: string, preview: string): string {
  if (preview.startsWith(interruptedEffectUnknown)) return ' (interrupted, effect unknown)';
  if (outputType.startsWith('error')) return ' (error)';
  return outputType === 'execution-denied' ? ' (denied)' : '';
}
