import { ModelRegistry } from '../agents/model-registry';
import { DemoModel } from './demo/model';

/** The offline scripted demo model's route: chosen explicitly, never a silent fallback. */
export const demoRoute = 'demo:scripted';

/** The offline `demo:` provider, by name: `demo:scripted` is the scripted demo model. */
export const demoProvider = { demo: (modelId: string) => new DemoModel(modelId) };

/**
 * The CLI's worker models: the providers configured in the environment, plus the offline `demo:`
 * provider, which `CADRE_MODEL=demo:scripted` chooses. Only the CLI's workers serve it.
 */
export function cliModels(env: NodeJS.ProcessEnv = process.env, defaultRoute?: string): ModelRegistry {
  return ModelRegistry.fromEnvironment(env, {
    providers: demoProvider,
    ...(defaultRoute ? { defaultRoute } : {}),
  });
}

/**
 * Models for `cadre start` and `cadre dev`: the configured providers, or, when none is
 * configured, the offline scripted demo as the default, said in a banner. `cadre worker` never
 * falls back to it.
 */
export function modelsForTrying(write: (line: string) => void, env: NodeJS.ProcessEnv = process.env): ModelRegistry {
  const models = cliModels(env);
  if (models.defaultRoute) return models;
  write(
    `[cadre] no model provider is configured: agents without a model use the offline scripted demo (${demoRoute}), not an LLM.`,
  );
  write(
    '[cadre] for a real model set OPENAI_API_KEY, ANTHROPIC_API_KEY or CADRE_OPENAI_COMPATIBLE_BASE_URL (and CADRE_MODEL).',
  );
  return cliModels(env, demoRoute);
}
