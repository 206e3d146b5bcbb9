import { workflowInfo } from '@temporalio/workflow';
import type { AgentSpec } from '../agents/agent-definition';
import type { RunModelStepResult } from '../activities/types';
import type { RunBuildReport } from '../protocol/run-build';
import type { AgentState } from './agent-state';

/**
 * Records `agent-changed` when a model step ran on a worker whose definition of the agent differs
 * from the run's (only possible without Worker Versioning), once per new definition: the spec then
 * carries the new fingerprint, through continue-as-new too.
 */
export function noteAgentFingerprint(spec: AgentSpec, state: AgentState, step: RunModelStepResult): void {
  const to = step.agentFingerprint;
  const from = spec.fingerprint;
  if (!to || !from || to === from) return;
  state.events.emit({ type: 'agent-changed', step: state.steps, from, to });
  spec.fingerprint = to;
}

/** The build the run's latest workflow task ran on, and its agent's fingerprint, for `handle.status()`. */
export function runBuildReport(spec: AgentSpec | undefined): { build?: RunBuildReport } {
  const version = deploymentVersion();
  const build: RunBuildReport = {
    ...(version ? { deploymentName: version.deploymentName, buildId: version.buildId } : {}),
    ...(spec?.fingerprint ? { fingerprint: spec.fingerprint } : {}),
  };
  return Object.keys(build).length > 0 ? { build } : {};
}

/** One line for Temporal UI's current details: `build cadre:A · agent 3f2a9c1d…`; empty when nothing is known. */
export function runBuildLine(spec: AgentSpec | undefined): string {
  const version = deploymentVersion();
  return [
    version ? `build ${version.deploymentName}:${version.buildId}` : undefined,
    spec?.fingerprint ? `agent ${spec.fingerprint}` : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The deployment build of the worker running this task; an unversioned worker's own build id does not count. */
function deploymentVersion(): { deploymentName: string; buildId: string } | undefined {
  const version = workflowInfo().currentDeploymentVersion;
  return version?.deploymentName ? version : undefined;
}
