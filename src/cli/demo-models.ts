import { demoRoute, ModelRegistry } from '../agents/model-registry';

/**
 * Models for `cadre start` and `cadre dev`: the configured providers, or, when none is
 * configured, the offline scripted demo as the default, said in a banner. `cadre worker` never
 * falls back to it.
 */
export function modelsForTrying(write: (line: string) => void, env: NodeJS.ProcessEnv = process.env): ModelRegistry {
  const models = ModelRegistry.fromEnvironment(env);
  if (models.defaultRoute) return models;
  write(
    `[cadre] no model provider is configured: agents without a model use the offline scripted demo (${demoRoute}), not an LLM.`,
  );
  write(
    '[cadre] for a real model set OPENAI_API_KEY, ANTHROPIC_API_KEY or CADRE_OPENAI_COMPATIBLE_BASE_URL (and CADRE_MODEL).',
  );
  return ModelRegistry.fromEnvironment(env, { defaultRoute: demoRoute });
}
