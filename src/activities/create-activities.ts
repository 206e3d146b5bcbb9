import { ApplicationFailure } from '@temporalio/activity';
import type { AgentSpec } from '../agents/agent-definition';
import { CadreError } from '../errors';
import type { ActivityDependencies } from './dependencies';
import { createRunModelStep } from './model-step';
import { createRunTool } from './run-tool';
import { createVerifyApproval } from './verify-approval';
import { validateCallOptions } from './call-settings';
import type {
  AgentActivities,
  CommitConversationArgs,
  DescribeAgentArgs,
  MapSubagentOutputArgs,
  MapSubagentOutputResult,
} from './types';

/** Builds the agent workflow's activities over the worker's registries. */
export function createActivities(deps: ActivityDependencies): AgentActivities {
  return {
    async describeAgent({ agent, callOptions, overrides }: DescribeAgentArgs): Promise<AgentSpec> {
      try {
        await validateCallOptions(deps.agents.get(agent), callOptions);
        return { ...deps.agents.spec(agent, overrides), searchAttributes: deps.searchAttributes === true };
      } catch (error) {
        if (error instanceof CadreError) throw ApplicationFailure.nonRetryable(error.message, error.type);
        throw error;
      }
    },
    runModelStep: createRunModelStep(deps),
    runTool: createRunTool(deps),
    verifyApproval: createVerifyApproval(deps),
    async mapSubagentOutput({ agent, toolName, result }: MapSubagentOutputArgs): Promise<MapSubagentOutputResult> {
      const map = deps.agents.get(agent).subagents?.[toolName]?.toModelOutput;
      const output = map ? await map(result) : result.text;
      return { output: typeof output === 'string' ? { type: 'text', value: output } : output };
    },
    async commitConversation(args: CommitConversationArgs): Promise<void> {
      await deps.conversations.applyWrites(args);
    },
  };
}
