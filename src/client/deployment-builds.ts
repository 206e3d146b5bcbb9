import { status as grpcStatus } from '@grpc/grpc-js';
import { type Client, isGrpcServiceError } from '@temporalio/client';
import { temporal } from '../peers/temporal-proto';
import { ConfigurationError } from '../errors';

/** One build of a Worker Deployment, as Temporal names it (`<deployment>:<buildId>` in search attributes). */
export interface DeploymentBuild {
  deploymentName: string;
  buildId: string;
}

/** Whether an old build still has pinned runs: `draining` while it does, `drained` once none is left open. */
export type BuildDrainage = 'draining' | 'drained' | 'unknown';

/** Where a run's workflow tasks go: its build, and whether it is pinned there (by its worker or an override). */
export interface RunVersioning {
  runId: string;
  /** Where its next workflow task goes: an override's build, else the build its worker reported. */
  build?: DeploymentBuild;
  /** The build of the worker that completed its latest workflow task. */
  ranOn?: string;
  pinned: boolean;
}

/** The current build of a deployment, or undefined when it has none yet. */
export async function currentBuild(client: Client, deploymentName: string): Promise<DeploymentBuild | undefined> {
  const described = await unlessNotFound(() =>
    client.workflowService.describeWorkerDeployment({ namespace: client.options.namespace, deploymentName }),
  );
  // A deployment Temporal does not know (no worker of it has polled yet) has no current build either.
  const current = described?.workerDeploymentInfo?.routingConfig?.currentDeploymentVersion;
  return current?.buildId ? { deploymentName, buildId: current.buildId } : undefined;
}

/**
 * What Temporal says of an old build's pinned runs (DescribeWorkerDeploymentVersion). The server
 * refreshes it on an interval, so it may say `draining` for a while after the last run ended.
 * Throws a `ConfigurationError` naming the build when Temporal does not know it.
 */
export async function buildDrainage(client: Client, build: DeploymentBuild): Promise<BuildDrainage> {
  const described = await unlessNotFound(() =>
    client.workflowService.describeWorkerDeploymentVersion({
      namespace: client.options.namespace,
      deploymentVersion: build,
    }),
  );
  if (!described) {
    throw new ConfigurationError(
      `Temporal knows no build '${build.buildId}' of deployment '${build.deploymentName}': no worker of that build has polled, or the version was deleted. ` +
        `List the deployment's builds with: temporal worker deployment describe --name ${build.deploymentName}.`,
    );
  }
  const status = described.workerDeploymentVersionInfo?.drainageInfo?.status;
  const { VersionDrainageStatus } = temporal.api.enums.v1;
  if (status === VersionDrainageStatus.VERSION_DRAINAGE_STATUS_DRAINED) return 'drained';
  if (status === VersionDrainageStatus.VERSION_DRAINAGE_STATUS_DRAINING) return 'draining';
  return 'unknown';
}

/** How often a describe call that answered NOT_FOUND is tried, and the pause between tries. */
const notFoundTries = 5;
const notFoundPauseMs = 200;

/**
 * The answer of a call that describes a deployment or one of its versions, or undefined when
 * Temporal does not know it. Temporal keeps each deployment and version in a workflow of its own,
 * which continues as new after every drainage check (every few minutes by default, every second
 * with a short `matching.wv.VersionDrainageStatusRefreshInterval`). Servers before 1.30 answer a
 * describe that reaches the run that has just continued NOT_FOUND, so a NOT_FOUND counts only once
 * it persists over a second.
 */
async function unlessNotFound<T>(describe: () => Promise<T>): Promise<T | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await describe();
    } catch (error) {
      if (!isGrpcServiceError(error) || error.code !== grpcStatus.NOT_FOUND) throw error;
      if (attempt >= notFoundTries) return undefined;
      await new Promise((resolve) => setTimeout(resolve, notFoundPauseMs));
    }
  }
}

/** Open runs whose tasks go to `build`, counted by Temporal's `TemporalWorkerDeploymentVersion` search attribute. */
export async function openRunsOnBuild(client: Client, build: DeploymentBuild): Promise<number> {
  const { count } = await client.workflow.count(
    `ExecutionStatus = 'Running' AND TemporalWorkerDeploymentVersion = '${versionKey(build)}'`,
  );
  return count;
}

/** A run's current build and versioning behavior; an override takes precedence over what its worker said. */
export async function runVersioning(client: Client, workflowId: string): Promise<RunVersioning> {
  const { workflowExecutionInfo } = await client.workflowService.describeWorkflowExecution({
    namespace: client.options.namespace,
    execution: { workflowId },
  });
  const info = workflowExecutionInfo?.versioningInfo;
  const override = info?.versioningOverride?.pinned?.version;
  const version = override ?? info?.deploymentVersion;
  const { VersioningBehavior } = temporal.api.enums.v1;
  const ranOn = info?.deploymentVersion?.buildId;
  return {
    runId: workflowExecutionInfo?.execution?.runId ?? '',
    ...(ranOn ? { ranOn } : {}),
    ...(version?.buildId && version.deploymentName
      ? { build: { deploymentName: version.deploymentName, buildId: version.buildId } }
      : {}),
    pinned: override !== undefined || info?.behavior === VersioningBehavior.VERSIONING_BEHAVIOR_PINNED,
  };
}

/** Pins one run (by run id) to `build` with a versioning override, so its next workflow task goes there. */
export async function pinRun(client: Client, workflowId: string, runId: string, build: DeploymentBuild): Promise<void> {
  const { PinnedOverrideBehavior } = temporal.api.workflow.v1.VersioningOverride;
  await client.workflowService.updateWorkflowExecutionOptions({
    namespace: client.options.namespace,
    workflowExecution: { workflowId, runId },
    workflowExecutionOptions: {
      versioningOverride: {
        pinned: { behavior: PinnedOverrideBehavior.PINNED_OVERRIDE_BEHAVIOR_PINNED, version: build },
      },
    },
    updateMask: { paths: ['versioning_override'] },
    identity: client.options.identity ?? 'cadre',
  });
}

/** `<deployment>:<buildId>`, the value of `TemporalWorkerDeploymentVersion`. */
export function versionKey(build: DeploymentBuild): string {
  return `${build.deploymentName}:${build.buildId}`;
}

/** The build to move to: `buildId` when given, else the deployment's current build (an error when it has none). */
export async function targetBuild(client: Client, deploymentName: string, buildId?: string): Promise<DeploymentBuild> {
  if (buildId) return { deploymentName, buildId };
  const current = await currentBuild(client, deploymentName);
  if (!current) {
    throw new ConfigurationError(
      `Deployment '${deploymentName}' has no current build. Make one current first: temporal worker deployment set-current-version --deployment-name ${deploymentName} --build-id <id>.`,
    );
  }
  return current;
}
