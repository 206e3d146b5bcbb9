import type { Counter, Histogram, Meter, UpDownCounter } from '@opentelemetry/api';
import type { Pricing } from '../protocol/usage';

/** Token counts of one model step, by kind. */
export interface StepTokens {
  input: number;
  output: number;
  cached?: number;
}

/**
 * Cadre's metric instruments. Labels stay bounded (agent, model route, tool, outcome, status):
 * never a workflow id, a run id or a call id.
 */
export class AgentMetrics {
  private readonly tokens: Counter;
  private readonly cost: Counter;
  private readonly stepDuration: Histogram;
  private readonly firstToken: Histogram;
  private readonly toolDuration: Histogram;
  private readonly toolCalls: Counter;
  private readonly approvalsWaiting: UpDownCounter;
  private readonly approvalWait: Histogram;
  private readonly runs: Counter;

  constructor(
    meter: Meter,
    private readonly pricing: Pricing = {},
  ) {
    this.tokens = meter.createCounter('cadre.tokens', {
      unit: '{token}',
      description: 'Tokens of completed model steps, by agent, model route and kind (input, output, cached).',
    });
    this.cost = meter.createCounter('cadre.cost', {
      unit: 'USD',
      description: 'Cost of completed model steps, for routes with a price.',
    });
    this.stepDuration = meter.createHistogram('gen_ai.client.operation.duration', {
      unit: 's',
      description: 'Duration of model steps, by agent, model route and outcome.',
    });
    this.firstToken = meter.createHistogram('cadre.model.time_to_first_token', {
      unit: 's',
      description: 'Time from the start of a streaming model step to its first chunk.',
    });
    this.toolDuration = meter.createHistogram('cadre.tool.duration', {
      unit: 's',
      description: 'Duration of tool executions, by agent, tool and outcome.',
    });
    this.toolCalls = meter.createCounter('cadre.tool.calls', {
      unit: '{call}',
      description: 'Tool executions by agent, tool and outcome (each attempt counts).',
    });
    this.approvalsWaiting = meter.createUpDownCounter('cadre.approvals.waiting', {
      unit: '{approval}',
      description: 'Approval requests waiting for a decision; sum it across workers.',
    });
    this.approvalWait = meter.createHistogram('cadre.approval.wait.duration', {
      unit: 's',
      description: 'Time from an approval request to its decision, by agent, tool and outcome.',
    });
    this.runs = meter.createCounter('cadre.runs', {
      unit: '{run}',
      description: 'Finished runs by agent, status and stop reason.',
    });
  }

  /** Records a completed model step: its tokens, its cost where the route has a price, and its duration. */
  modelStep(agent: string, route: string, tokens: StepTokens, seconds: number): void {
    const labels = { 'cadre.agent': agent, 'cadre.model.route': route };
    const cached = tokens.cached ?? 0;
    this.tokens.add(tokens.input, { ...labels, 'gen_ai.token.type': 'input' });
    this.tokens.add(tokens.output, { ...labels, 'gen_ai.token.type': 'output' });
    if (cached > 0) this.tokens.add(cached, { ...labels, 'gen_ai.token.type': 'cached' });
    const price = this.pricing[route];
    if (price) {
      // Cached tokens are part of the input count; they are billed at their own price.
      const uncached = Math.max(0, tokens.input - cached);
      const usd =
        (uncached * price.inputPerMTok +
          cached * (price.cachedInputPerMTok ?? price.inputPerMTok) +
          tokens.output * price.outputPerMTok) /
        1_000_000;
      this.cost.add(usd, labels);
    }
    this.stepDuration.record(seconds, { ...labels, 'cadre.outcome': 'success' });
  }

  /** Records a failed model step attempt's duration. */
  modelStepFailed(agent: string, route: string, seconds: number): void {
    this.stepDuration.record(seconds, { 'cadre.agent': agent, 'cadre.model.route': route, 'cadre.outcome': 'error' });
  }

  /** Records the time a streaming step waited for its first chunk. */
  timeToFirstToken(agent: string, route: string, seconds: number): void {
    this.firstToken.record(seconds, { 'cadre.agent': agent, 'cadre.model.route': route });
  }

  /** Records one tool execution attempt. */
  toolCall(agent: string, tool: string, outcome: 'success' | 'error', seconds: number): void {
    const labels = { 'cadre.agent': agent, 'gen_ai.tool.name': tool, 'cadre.outcome': outcome };
    this.toolCalls.add(1, labels);
    this.toolDuration.record(seconds, labels);
  }

  /** Counts approval requests a model step raised. */
  approvalsRequested(agent: string, tool: string, count: number): void {
    this.approvalsWaiting.add(count, { 'cadre.agent': agent, 'gen_ai.tool.name': tool });
  }

  /** Records an approval's decision (or its cancellation) and how long it waited. */
  approvalClosed(agent: string, tool: string, outcome: string, seconds: number): void {
    this.approvalsWaiting.add(-1, { 'cadre.agent': agent, 'gen_ai.tool.name': tool });
    this.approvalWait.record(seconds, { 'cadre.agent': agent, 'gen_ai.tool.name': tool, 'cadre.outcome': outcome });
  }

  /** Counts a finished run. */
  runFinished(agent: string, status: string, stopReason: string): void {
    this.runs.add(1, { 'cadre.agent': agent, 'cadre.run.status': status, 'cadre.stop_reason': stopReason });
  }
}
