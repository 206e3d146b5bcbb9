/**
 * What built a run: the Worker Deployment build its workflow tasks run on (absent without Worker
 * Versioning) and the fingerprint of its agent's definition, as `handle.status()` reports them.
 */
export interface RunBuildReport {
  /** The deployment of the worker that ran the run's latest workflow task. */
  deploymentName?: string;
  /** The build id of that worker; a pinned run keeps it to the end. */
  buildId?: string;
  /**
   * The fingerprint of the agent's definition the run runs with (instructions, tools, policy,
   * model, subagents): the one it started with, or the latest an `agent-changed` event named.
   */
  fingerprint?: string;
}
