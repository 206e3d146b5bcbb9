import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AgentState } from '../../src/workflows/agent-state';
import type { AgentStateSnapshot } from '../../src/protocol/state-snapshot';

/**
 * Continue-as-new payloads of each snapshot format, frozen (the 1.0 format is version 2): every
 * build must restore each of them. Never regenerate one; add a new file when the format changes.
 */
const folder = join(__dirname, '..', 'fixtures', 'snapshots');
const fixture = (name: string): AgentStateSnapshot =>
  JSON.parse(readFileSync(join(folder, name), 'utf8')) as AgentStateSnapshot;
const ref = { id: 'juggler-1@run-1', workflowId: 'juggler-1' };

describe('frozen continue-as-new snapshots', () => {
  it.each(readdirSync(folder).filter((name) => name.endsWith('.json')))('restores %s', (name) => {
    const state = AgentState.restore(fixture(name), { workflowId: 'juggler-1', depth: 0 }, ref);
    expect(state.snapshot().version).toBeGreaterThanOrEqual(2);
  });

  it('restores the 1.0 snapshot taken mid-run with live children, a decided approval and a message waiting', () => {
    const old = fixture('v2-live-children.json');
    const state = AgentState.restore(old, { workflowId: 'juggler-1', depth: 0 }, ref);
    expect(state.conversation.length).toBe(3);
    expect(state.steps).toBe(1);
    expect(state.inbox).toEqual(['[subagent helper-2 settled: completed]\nFinal message:\nhelper cleaned up']);
    expect(state.events.next).toBe(5);
    expect(state.nextChildNumber()).toBe(3);
    const snapshot = state.snapshot();
    expect(snapshot.children).toEqual(old.children);
    expect(snapshot.approvals).toEqual(old.approvals);
    expect(snapshot.conversation).toEqual(old.conversation);
  });

  it('refuses a snapshot of a version it does not know, naming the versions it restores', () => {
    const newer = { ...fixture('v2-live-children.json'), version: 3 } as unknown as AgentStateSnapshot;
    expect(() => AgentState.restore(newer, { workflowId: 'juggler-1', depth: 0 }, ref)).toThrow(
      'This worker restores continue-as-new snapshots up to version 2; got version 3. Run the build that wrote it, or a newer one.',
    );
  });
});
