import { z } from 'zod';
import { tool, type ToolSet } from 'ai';
import type { AgentDefinition } from '../../src/agents/agent-definition';
import { defineAgent } from '../../src/agents/define-agent';
import { AgentRegistry } from '../../src/agents/agent-registry';
import { agentFingerprint, agentFingerprints } from '../../src/agents/agent-fingerprint';
import { ConfigurationError } from '../../src/errors';
import { deploymentOptions, resolveDeployment } from '../../src/worker/worker-deployment';
import { createAgentWorker } from '../../src/worker/create-agent-worker';
import { runCadre as cadre } from '../helpers/cli-process';
import { demoModels } from '../helpers/demo-models';

const models = demoModels();
const lookup = tool({ description: 'look up', inputSchema: z.object({ key: z.string() }), execute: async () => 'x' });
type AgentSettings = AgentDefinition<ToolSet>;
const registryOf = (...agents: AgentSettings[]) =>
  new AgentRegistry(
    agents.map((agent) => defineAgent(agent)),
    models,
  );

describe('worker deployments', () => {
  it('turns on pinned Worker Versioning from a name and a build id, or from CADRE_DEPLOYMENT and CADRE_BUILD_ID', () => {
    const none = new Map<string, string>();
    expect(resolveDeployment(undefined, none, {})).toBeUndefined();
    const given = resolveDeployment({ name: 'cadre', buildId: 'A' }, none, {});
    expect(given).toEqual({ name: 'cadre', buildId: 'A', derived: false });
    expect(deploymentOptions(given!)).toEqual({
      useWorkerVersioning: true,
      version: { deploymentName: 'cadre', buildId: 'A' },
      defaultVersioningBehavior: 'PINNED',
    });
    expect(resolveDeployment(undefined, none, { CADRE_DEPLOYMENT: 'cadre', CADRE_BUILD_ID: 'B' })).toEqual({
      name: 'cadre',
      buildId: 'B',
      derived: false,
    });
    // Code names the deployment, the environment gives the build id.
    expect(resolveDeployment({ name: 'cadre' }, none, { CADRE_BUILD_ID: 'C' })).toMatchObject({ buildId: 'C' });
  });

  it('refuses a build id without a deployment name, and names Temporal does not accept, with what to fix', () => {
    const none = new Map<string, string>();
    expect(() => resolveDeployment(undefined, none, { CADRE_BUILD_ID: 'B' })).toThrow(ConfigurationError);
    expect(() => resolveDeployment(undefined, none, { CADRE_BUILD_ID: 'B' })).toThrow(/without a deployment name/);
    expect(() => resolveDeployment({ name: 'my.deploy', buildId: 'A' }, none, {})).toThrow(/not one Temporal accepts/);
    expect(() => resolveDeployment({ name: '', buildId: 'A' }, none, {})).toThrow(/is empty/);
    expect(() => resolveDeployment({ name: 'cadre', buildId: 'a b' }, none, {})).toThrow(/not one Temporal accepts/);
  });

  it('refuses cadre worker --build-id without --deployment, saying what to pass', async () => {
    const { code, output } = await cadre(['worker', '--build-id', 'B'], { CADRE_DEPLOYMENT: '' });
    expect(code).toBe(1);
    expect(output).toContain('--build-id B was given without --deployment');
  });

  it('refuses createAgentWorker with both deployment and workerDeploymentOptions before it connects', async () => {
    await expect(
      createAgentWorker({
        agents: [defineAgent({ name: 'solo' })],
        models,
        address: '127.0.0.1:1',
        deployment: { name: 'cadre', buildId: 'A' },
        workerOptions: {
          workerDeploymentOptions: { useWorkerVersioning: false, version: { deploymentName: 'x', buildId: 'y' } },
        },
      }),
    ).rejects.toThrow(/Both deployment and workerOptions.workerDeploymentOptions/);
  });

  it('derives a build id from the agents when none is given, which changes with their definitions', async () => {
    const a = await agentFingerprints(registryOf({ name: 'helper', instructions: 'Be brief.', tools: { lookup } }));
    const same = await agentFingerprints(registryOf({ name: 'helper', instructions: 'Be brief.', tools: { lookup } }));
    const b = await agentFingerprints(registryOf({ name: 'helper', instructions: 'Be thorough.', tools: { lookup } }));
    const derived = resolveDeployment({ name: 'cadre' }, a, {});
    expect(derived?.derived).toBe(true);
    expect(derived?.buildId).toMatch(/^agents-[0-9a-f]{12}$/);
    expect(resolveDeployment({ name: 'cadre' }, same, {})?.buildId).toBe(derived?.buildId);
    expect(resolveDeployment({ name: 'cadre' }, b, {})?.buildId).not.toBe(derived?.buildId);
  });

  it('fingerprints an agent by its instructions, tool schemas, approval policy, model and subagents', async () => {
    const base = { name: 'helper', instructions: 'Be brief.', tools: { lookup } };
    const fingerprint = (agent: AgentSettings) => agentFingerprint(registryOf(agent, { name: 'other' }), 'helper');
    const original = await fingerprint(base);
    expect(original).toMatch(/^[0-9a-f]{16}$/);
    expect(await fingerprint({ ...base })).toBe(original);
    const wider = tool({
      description: 'look up',
      inputSchema: z.object({ key: z.string(), all: z.boolean() }),
      execute: async () => 'x',
    });
    const changes: AgentSettings[] = [
      { ...base, instructions: 'Be thorough.' },
      { ...base, tools: { lookup: wider } },
      { ...base, tools: { lookup, lookupAgain: lookup } },
      { ...base, toolApproval: { lookup: 'user-approval' } },
      { ...base, model: 'demo:other' },
      { ...base, subagents: { ask: { agent: 'other', description: 'asks' } } },
    ];
    for (const changed of changes) expect(await fingerprint(changed)).not.toBe(original);
  });
});
