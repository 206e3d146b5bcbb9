/**
 * Where a run's tools run. When the worker that took a run's first workflow task serves its agent,
 * they run as local activities on the workflow's worker (no task queue round trip); else, and for
 * tools marked `longRunning`, as activities on the agent's queue. Model steps are always activities.
 */

/**
 * The failure type of a local tool on a worker that does not serve the agent (a fleet split by
 * agent, a later workflow task on another worker): the workflow then runs the same call as an
 * activity on the agent's queue. Never reaches a user.
 */
export const agentNotServedHereType = 'AgentNotServedHere';
