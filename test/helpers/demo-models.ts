import { ModelRegistry, type ModelRegistryOptions } from '../../src/agents/model-registry';
import { demoProvider, demoRoute } from '../../src/cli/demo-models';

/** A registry with the CLI's offline demo provider, `demo:scripted` by default, and `extra`. */
export function demoModels(extra: ModelRegistryOptions = {}): ModelRegistry {
  return new ModelRegistry({ defaultRoute: demoRoute, ...extra, providers: { ...demoProvider, ...extra.providers } });
}
