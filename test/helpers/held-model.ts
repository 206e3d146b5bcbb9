import { defineAgent } from '../../src/agents/define-agent';
import { reactiveModel } from './scripted-model';

/**
 * Model calls that wait until the test lets them answer: counts the calls that started, so a test
 * can wait for each to be under way, then `open()` lets every held call answer `'answered'`.
 */
export class HeldModelCalls {
  /** Model calls that have started. */
  calls = 0;
  private release: () => void = () => undefined;
  private gate = new Promise<void>((resolve) => (this.release = resolve));

  /** An agent named `name` whose model calls are held here; its model steps allow 3 attempts. */
  agent(name: string) {
    return defineAgent({
      name,
      model: reactiveModel(async () => {
        this.calls += 1;
        await this.gate;
        return 'answered';
      }),
      modelRetry: { maximumAttempts: 3 },
    });
  }

  /** Lets every held call, and every later one, answer. */
  open(): void {
    this.release();
  }

  /** Holds the calls from now on again, and counts from 0. */
  hold(): void {
    this.calls = 0;
    this.gate = new Promise<void>((resolve) => (this.release = resolve));
  }
}
