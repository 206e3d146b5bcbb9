import { describeEvent } from '../../src/cli/event-printer';
import type { AgentEvent } from '../../src/protocol/agent-events';
import { interruptedToolOutput } from '../../src/protocol/interrupted-call';

const result = (outputType: string, preview: string): AgentEvent =>
  ({
    type: 'tool-result',
    toolCallId: 'c1',
    toolName: 'charge',
    outputType,
    preview,
    seq: 1,
    at: '',
    workflowId: 'w',
    depth: 0,
  }) as AgentEvent;

describe("cadre run's line for a tool result", () => {
  it('marks an at-most-once call that was cut off as interrupted, effect unknown', () => {
    const output = interruptedToolOutput('charge', { amount: 42 });
    const [line] = describeEvent(result('error-text', output.type === 'error-text' ? output.value : ''));
    expect(line).toMatch(
      /^  <- charge \(interrupted, effect unknown\): Interrupted, effect unknown: the call to tool 'charge'/,
    );
  });

  it('marks an error result and a denial, and nothing else', () => {
    expect(describeEvent(result('error-text', 'boom'))).toEqual(['  <- charge (error): boom']);
    expect(describeEvent(result('execution-denied', 'no'))).toEqual(['  <- charge (denied): no']);
    expect(describeEvent(result('text', 'charged 42'))).toEqual(['  <- charge: charged 42']);
  });
});
