import { stepCountIs } from 'ai';
import { type ActivationStep, activationView, stepOf } from '../../src/activities/activation-steps';
import { runStepCallbacks, stopConditionMet } from '../../src/activities/step-settings';
import { defineAgent } from '../../src/agents/define-agent';

/** The activation's steps as the model step builds them, counting how often they are built. */
function countedSteps() {
  const counted = { builds: 0 };
  const stepsOf = (): ActivationStep[] => {
    counted.builds += 1;
    const messages = [
      { role: 'user' as const, content: 'go' },
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'first' }] },
    ];
    const view = activationView(messages, 0, {});
    return [...view.steps, stepOf({ role: 'assistant', content: 'second' }, view.steps.length, 'stop', undefined, {})];
  };
  return { counted, stepsOf };
}

const context = { endsActivation: true, step: 2, runtimeContext: {} };

describe("an activation's steps, rebuilt from the conversation for the agent's hooks", () => {
  it('are never built for an agent with no stopWhen, onStepFinish or onFinish', async () => {
    const agent = defineAgent({ name: 'plain' });
    const { counted, stepsOf } = countedSteps();
    expect(await stopConditionMet(agent, stepsOf, 2)).toBe(false);
    await runStepCallbacks(agent, stepsOf, context);
    expect(counted.builds).toBe(0);
  });

  it('are handed to the hooks that read them, with the new step last', async () => {
    const seen: number[] = [];
    const agent = defineAgent({
      name: 'hooked',
      stopWhen: stepCountIs(2),
      onStepFinish: (step) => void seen.push(step.stepNumber),
      onFinish: (event) => void seen.push(event.steps.length),
    });
    const { stepsOf } = countedSteps();
    expect(await stopConditionMet(agent, stepsOf, 2)).toBe(true);
    await runStepCallbacks(agent, stepsOf, context);
    expect(seen).toEqual([1, 2]);
  });
});
