import type { LanguageModel } from 'ai';
import { ConfigurationError } from '../errors';
import { peerProblem, requireOptionalPeer } from '../peers/peer-check';
import { peerPackage } from '../peers/peer-packages';
import type * as OpenAiCompatible from '@ai-sdk/openai-compatible';
import type * as OpenAi from '@ai-sdk/openai';
import type * as Anthropic from '@ai-sdk/anthropic';

/** Makes a model from the part of a route after `provider:`. */
export type ModelFactory = (modelId: string) => LanguageModel;

/** Options of a model registry; `models` maps whole routes to ready instances (tests, custom models). */
export interface ModelRegistryOptions {
  /** Model factories by provider name: a route `name:model-id` calls `providers[name]('model-id')`. */
  providers?: Record<string, ModelFactory>;
  /** Ready model instances by whole route (`'test:echo'`), found before any provider. */
  models?: Record<string, LanguageModel>;
  /** Route used by agents that name no model. */
  defaultRoute?: string;
}

/** The environment variable that configures each built-in provider, for error messages. */
const providerVariables: Record<string, string> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

/**
 * Maps routes like `openai:gpt-5-mini` to AI SDK models on the worker. With no default route, an
 * agent that names no model is a configuration error. (The offline `demo:` provider is the CLI's:
 * `cadre start`, `cadre dev` and `cadre worker` add it; a registry you make has only your providers.)
 */
export class ModelRegistry {
  /** Route of agents that name no model; undefined when none is configured. */
  readonly defaultRoute: string | undefined;
  private readonly providers: Map<string, ModelFactory>;
  private readonly models: Map<string, LanguageModel>;

  constructor(options: ModelRegistryOptions = {}) {
    this.providers = new Map(Object.entries(options.providers ?? {}));
    this.models = new Map(Object.entries(options.models ?? {}));
    this.defaultRoute = options.defaultRoute;
  }

  /**
   * Reads providers from the environment: `OPENAI_API_KEY` (`openai:`), `ANTHROPIC_API_KEY`
   * (`anthropic:`), and `CADRE_OPENAI_COMPATIBLE_BASE_URL` for Ollama, vLLM or llama.cpp
   * (`<CADRE_OPENAI_COMPATIBLE_NAME or local>:`). `CADRE_MODEL` sets the default route; without
   * it, the first configured provider's usual model is the default, and with no provider there is none.
   */
  static fromEnvironment(env: NodeJS.ProcessEnv = process.env, extra: ModelRegistryOptions = {}): ModelRegistry {
    const providers: Record<string, ModelFactory> = {};
    let firstConfigured: string | undefined;
    // Each provider's package is an optional peer, loaded by the first model made from it: the
    // worker's start-up check resolves every agent's route, so a missing package fails the start.
    if (env.OPENAI_API_KEY) {
      const openai = once(() =>
        requireOptionalPeer<typeof OpenAi>('@ai-sdk/openai', "The 'openai:' model route").createOpenAI({
          apiKey: env.OPENAI_API_KEY,
          baseURL: env.OPENAI_BASE_URL,
        }),
      );
      providers.openai = (modelId) => openai()(modelId);
      firstConfigured ??= 'openai:gpt-5-mini';
    }
    if (env.ANTHROPIC_API_KEY) {
      const anthropic = once(() =>
        requireOptionalPeer<typeof Anthropic>('@ai-sdk/anthropic', "The 'anthropic:' model route").createAnthropic({
          apiKey: env.ANTHROPIC_API_KEY,
          baseURL: env.ANTHROPIC_BASE_URL,
        }),
      );
      providers.anthropic = (modelId) => anthropic()(modelId);
      firstConfigured ??= 'anthropic:claude-sonnet-4-5';
    }
    if (env.CADRE_OPENAI_COMPATIBLE_BASE_URL) {
      const name = env.CADRE_OPENAI_COMPATIBLE_NAME ?? 'local';
      const compatible = once(() =>
        requireOptionalPeer<typeof OpenAiCompatible>(
          '@ai-sdk/openai-compatible',
          `The '${name}:' model route (CADRE_OPENAI_COMPATIBLE_BASE_URL)`,
        ).createOpenAICompatible({
          name,
          baseURL: env.CADRE_OPENAI_COMPATIBLE_BASE_URL ?? '',
          apiKey: env.CADRE_OPENAI_COMPATIBLE_API_KEY,
        }),
      );
      providers[name] = (modelId) => compatible().chatModel(modelId);
      if (env.CADRE_OPENAI_COMPATIBLE_MODEL) firstConfigured ??= `${name}:${env.CADRE_OPENAI_COMPATIBLE_MODEL}`;
    }
    return new ModelRegistry({
      ...extra,
      providers: { ...providers, ...extra.providers },
      defaultRoute: extra.defaultRoute ?? (env.CADRE_MODEL || undefined) ?? firstConfigured,
    });
  }

  /** Adds a ready model under a whole route. */
  register(route: string, model: LanguageModel): void {
    this.models.set(route, model);
  }

  /** The model of `route`; the error names the variable to set, or the configured providers. */
  resolve(route: string): LanguageModel {
    const exact = this.models.get(route);
    if (exact) return exact;
    const separator = route.indexOf(':');
    const provider = separator > 0 ? route.slice(0, separator) : '';
    const modelId = route.slice(separator + 1);
    const factory = this.providers.get(provider);
    if (!factory && providerVariables[provider] && modelId.length > 0) {
      const packageName = `@ai-sdk/${provider}`;
      const problem = peerProblem(peerPackage(packageName));
      const install = problem
        ? `, and install ${packageName} in the project: npm install "${packageName}@${problem.peer.range}"`
        : '';
      throw new ConfigurationError(
        `Model route '${route}' needs the ${provider} provider: set ${providerVariables[provider]} on the worker${install}.`,
      );
    }
    if (!factory && provider === 'demo') {
      throw new ConfigurationError(
        `Model route '${route}' is the offline demo model, which only the CLI's workers serve (cadre start, ` +
          `cadre dev, cadre worker). In a worker you create, use a configured provider; in tests, give ` +
          `createAgentTestEnvironment the models of scriptedModels() from cadre/testing.`,
      );
    }
    if (!factory && provider.length > 0 && modelId.length > 0) {
      throw new ConfigurationError(
        `Model route '${route}' names provider '${provider}', which is not configured. For an OpenAI-compatible ` +
          `server set CADRE_OPENAI_COMPATIBLE_BASE_URL and CADRE_OPENAI_COMPATIBLE_NAME=${provider}; configured providers: ` +
          `${this.providerNames()}.`,
      );
    }
    if (!factory || modelId.length === 0) {
      throw new ConfigurationError(
        `Model route '${route}' cannot be resolved. Use '<provider>:<model>' with a configured provider ` +
          `(${this.providerNames()}); set OPENAI_API_KEY, ANTHROPIC_API_KEY or ` +
          `CADRE_OPENAI_COMPATIBLE_BASE_URL to add one.`,
      );
    }
    return factory(modelId);
  }

  private providerNames(): string {
    return this.providers.size > 0 ? [...this.providers.keys()].join(', ') : 'none';
  }
}

/** `make`, called once on first use. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
