import fs from 'node:fs';
import path from 'node:path';
import type { WorkerDeploymentOptions } from '@temporalio/worker';
import { ConfigurationError } from '../errors';
import { buildIdFromFingerprints } from '../agents/agent-fingerprint';
import { findProjectRoot } from '../server/paths';

/**
 * The Worker Deployment a worker's build belongs to. With it, every run is pinned to the build it
 * started on: its workflow tasks, model steps and tools go to workers of that build only.
 */
export interface AgentWorkerDeployment {
  /** Deployment name, shared by every build of the same workers (e.g. `cadre`). No `.` or `:`. */
  name: string;
  /**
   * This build's id (e.g. a git commit). Defaults to `CADRE_BUILD_ID`, else `agents-<hash>` of the
   * served agents' fingerprints and Cadre's version.
   */
  buildId?: string;
}

/** A worker's deployment with its build id settled. */
export interface ResolvedDeployment {
  name: string;
  buildId: string;
  /** True when the build id was derived from the agents' definitions. */
  derived: boolean;
}

/** Longest build id and deployment name Temporal accepts. */
const maxIdLength = 255;

/**
 * The deployment from `createAgentWorker({ deployment })`, else from `CADRE_DEPLOYMENT` and
 * `CADRE_BUILD_ID`; undefined without either (no versioning, as in development). A build id
 * without a deployment name, or a name Temporal refuses, is a ConfigurationError.
 */
export function resolveDeployment(
  option: AgentWorkerDeployment | undefined,
  fingerprints: ReadonlyMap<string, string>,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedDeployment | undefined {
  const source = option ? 'createAgentWorker({ deployment })' : 'CADRE_DEPLOYMENT / CADRE_BUILD_ID';
  const name = option ? option.name : env.CADRE_DEPLOYMENT || undefined;
  // Code may name the deployment and leave the build id to the environment (a CI sets it).
  const buildId = option?.buildId ?? (env.CADRE_BUILD_ID || undefined);
  if (name === undefined) {
    if (buildId === undefined) return undefined;
    throw new ConfigurationError(
      `A build id ('${buildId}') was given without a deployment name (${source}). ` +
        'Set the deployment name too (CADRE_DEPLOYMENT, --deployment or deployment.name), or drop the build id to run without Worker Versioning.',
    );
  }
  checkId('deployment name', name, source, /[.:\s]/);
  if (buildId !== undefined) checkId('build id', buildId, source, /[:\s]/);
  return buildId !== undefined
    ? { name, buildId, derived: false }
    : { name, buildId: buildIdFromFingerprints(fingerprints, cadreVersion()), derived: true };
}

/** The worker options that put a worker into the deployment's build, with runs pinned to it. */
export function deploymentOptions(deployment: ResolvedDeployment): WorkerDeploymentOptions {
  return {
    useWorkerVersioning: true,
    version: { deploymentName: deployment.name, buildId: deployment.buildId },
    defaultVersioningBehavior: 'PINNED',
  };
}

function checkId(what: string, value: unknown, source: string, forbidden: RegExp): void {
  if (typeof value !== 'string' || value.length === 0) {
    throw new ConfigurationError(
      `The ${what} of the worker's deployment is empty (${source}). Give it a value, e.g. 'cadre'.`,
    );
  }
  if (value.length > maxIdLength || forbidden.test(value)) {
    throw new ConfigurationError(
      `The ${what} '${value}' (${source}) is not one Temporal accepts: at most ${maxIdLength} characters, ` +
        `without ${what === 'build id' ? "':'" : "'.', ':'"} or spaces. Use letters, digits, '-' and '_'.`,
    );
  }
}

/** Cadre's package version, part of a derived build id so that a Cadre upgrade makes a new build. */
function cadreVersion(): string {
  try {
    const manifest = path.join(findProjectRoot(__dirname), 'package.json');
    return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
