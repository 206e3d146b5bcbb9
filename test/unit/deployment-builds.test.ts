import { Metadata, status } from '@grpc/grpc-js';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { buildDrainage, currentBuild } from '../../src/client/deployment-builds';
import { ConfigurationError } from '../../src/errors';

/** The error a Temporal server answers through gRPC, as the client receives it. */
function grpcError(code: status, details: string): Error {
  return Object.assign(new Error(`${code} ${status[code]}: ${details}`), { code, details, metadata: new Metadata() });
}

/** A client whose describe calls give each answer of `answers` in turn (an Error is thrown), counting the calls. */
function clientAnswering(answers: unknown[]): { client: Client; calls: () => number } {
  let calls = 0;
  const next = async () => {
    const answer = answers[Math.min(calls, answers.length - 1)];
    calls += 1;
    if (answer instanceof Error) throw answer;
    return answer;
  };
  const client = {
    options: { namespace: 'default' },
    workflowService: { describeWorkerDeploymentVersion: next, describeWorkerDeployment: next },
  } as unknown as Client;
  return { client, calls: () => calls };
}

const build = { deploymentName: 'cadre', buildId: 'A' };
const notFound = grpcError(status.NOT_FOUND, 'Worker Deployment Version not found');
const drained = {
  workerDeploymentVersionInfo: {
    drainageInfo: { status: temporal.api.enums.v1.VersionDrainageStatus.VERSION_DRAINAGE_STATUS_DRAINED },
  },
};

describe('deployment builds', () => {
  it("reads a build's drainage through the NOT_FOUND a server answers while the version's workflow continues as new", async () => {
    const { client, calls } = clientAnswering([notFound, notFound, drained]);
    await expect(buildDrainage(client, build)).resolves.toBe('drained');
    expect(calls()).toBe(3);
  });

  it('names the build and how to list the builds when Temporal keeps answering NOT_FOUND', async () => {
    const { client, calls } = clientAnswering([notFound]);
    const failure = buildDrainage(client, build);
    await expect(failure).rejects.toThrow(ConfigurationError);
    await expect(failure).rejects.toThrow(
      "Temporal knows no build 'A' of deployment 'cadre': no worker of that build has polled, or the version was deleted. " +
        "List the deployment's builds with: temporal worker deployment describe --name cadre.",
    );
    expect(calls()).toBe(5);
  });

  it('passes any other error on at once', async () => {
    const unavailable = grpcError(status.UNAVAILABLE, 'connection refused');
    const { client, calls } = clientAnswering([unavailable, drained]);
    await expect(buildDrainage(client, build)).rejects.toBe(unavailable);
    expect(calls()).toBe(1);
  });

  it('gives a deployment Temporal does not know no current build, and reads one through a passing NOT_FOUND', async () => {
    expect(await currentBuild(clientAnswering([notFound]).client, 'unknown')).toBeUndefined();
    const current = {
      workerDeploymentInfo: { routingConfig: { currentDeploymentVersion: { deploymentName: 'cadre', buildId: 'B' } } },
    };
    expect(await currentBuild(clientAnswering([notFound, current]).client, 'cadre')).toEqual({
      deploymentName: 'cadre',
      buildId: 'B',
    });
  });
});
