import type { RouteTotals, StepUsage } from '../protocol/usage';
import type { SqlDriver, SqlExecutor } from './sql-driver';

/** One model step's usage as it is recorded: the conversation and the step's response key make it unique. */
export interface LedgerEntry extends StepUsage {
  conversationId: string;
  /** The step's response key (`model:<step>:<promptLength>`): a retried step writes the same key. */
  stepKey: string;
  /** The tenant of the step's run, for tenant budgets and usage. */
  tenant?: string;
  /** When the step's response was recorded (ms since the epoch): a tenant budget's period counts by it. */
  recordedAt: number;
}

/**
 * The usage of every recorded model step, one row per step: a retried or replayed step writes the
 * same key, so it counts once. A tree's usage is the sum over a run's workflow id and every id below
 * it (`<id>/...`), from the run's newest conversation on (a reused workflow id starts afresh).
 */
export interface UsageLedger {
  /** Records a step's usage once; a second write of the same step keeps the first. */
  record(entry: LedgerEntry): Promise<void>;
  /** Every recorded step of the run `workflowId` and its descendants, oldest first, with its step key. */
  treeSteps(workflowId: string): Promise<StepUsage[]>;
  /** Every recorded step of `tenant`'s runs recorded at or after `since` (all of them without it), oldest first. */
  tenantSteps(tenant: string, since?: Date): Promise<StepUsage[]>;
  /** The steps of `tenant`'s runs recorded at or after `since`, summed by model route in the database (for budget checks). */
  tenantRouteTotals(tenant: string, since: Date): Promise<RouteTotals[]>;
}

interface LedgerRow {
  workflow_id: string;
  step_key: string;
  agent: string;
  model_route: string;
  input_tokens: number | string;
  output_tokens: number | string;
  cached_input_tokens: number | string;
}

/** {@link UsageLedger} over a SQL driver (table `cadre_usage`). */
export class SqlUsageLedger implements UsageLedger {
  constructor(private readonly driver: SqlDriver) {}

  async record(entry: LedgerEntry): Promise<void> {
    await recordUsageIn(this.driver, entry);
  }

  async treeSteps(workflowId: string): Promise<StepUsage[]> {
    // '/' + 1 is '0': the range holds exactly the ids that start with `<id>/`, and the index serves it.
    const rows = await this.driver.query<LedgerRow>(
      `SELECT u.workflow_id, u.step_key, u.agent, u.model_route, u.input_tokens, u.output_tokens, u.cached_input_tokens
       FROM cadre_usage u JOIN cadre_conversations c ON c.id = u.conversation_id
       WHERE (u.workflow_id = $1 OR (u.workflow_id >= $2 AND u.workflow_id < $3))
         AND c.created_order >= (SELECT COALESCE(MAX(created_order), 0) FROM cadre_conversations WHERE workflow_id = $1)
       ORDER BY u.seq`,
      [workflowId, `${workflowId}/`, `${workflowId}0`],
    );
    return rows.map(stepOf);
  }

  async tenantSteps(tenant: string, since?: Date): Promise<StepUsage[]> {
    const rows = await this.driver.query<LedgerRow>(
      `SELECT workflow_id, step_key, agent, model_route, input_tokens, output_tokens, cached_input_tokens
       FROM cadre_usage WHERE tenant = $1 AND recorded_at >= $2 ORDER BY seq`,
      [tenant, since?.getTime() ?? 0],
    );
    return rows.map(stepOf);
  }

  async tenantRouteTotals(tenant: string, since: Date): Promise<RouteTotals[]> {
    const rows = await this.driver.query<{
      model_route: string;
      input_tokens: number | string;
      output_tokens: number | string;
      cached_input_tokens: number | string;
      model_calls: number | string;
    }>(
      `SELECT model_route, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
         SUM(cached_input_tokens) AS cached_input_tokens, COUNT(*) AS model_calls
       FROM cadre_usage WHERE tenant = $1 AND recorded_at >= $2 GROUP BY model_route`,
      [tenant, since.getTime()],
    );
    return rows.map((row) => ({
      modelRoute: row.model_route,
      inputTokens: Number(row.input_tokens),
      outputTokens: Number(row.output_tokens),
      cachedInputTokens: Number(row.cached_input_tokens),
      modelCalls: Number(row.model_calls),
    }));
  }
}

function stepOf(row: LedgerRow): StepUsage {
  return {
    workflowId: row.workflow_id,
    stepKey: row.step_key,
    agent: row.agent,
    modelRoute: row.model_route,
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    cachedInputTokens: Number(row.cached_input_tokens),
  };
}

/** The `cadre_usage` table of a dialect: `seq` keeps the order steps were recorded in. */
export function usageTableStatements(dialect: 'sqlite' | 'postgres'): string[] {
  const seq = dialect === 'postgres' ? 'seq BIGSERIAL' : 'seq INTEGER PRIMARY KEY AUTOINCREMENT';
  const key = dialect === 'postgres' ? ', PRIMARY KEY (conversation_id, step_key)' : '';
  return [
    `CREATE TABLE cadre_usage (
      ${seq},
      conversation_id TEXT NOT NULL,
      step_key TEXT NOT NULL,
      workflow_id TEXT NOT NULL,
      agent TEXT NOT NULL,
      model_route TEXT NOT NULL,
      input_tokens INTEGER NOT NULL,
      output_tokens INTEGER NOT NULL,
      cached_input_tokens INTEGER NOT NULL${key}
    )`,
    ...(dialect === 'sqlite'
      ? ['CREATE UNIQUE INDEX cadre_usage_step ON cadre_usage (conversation_id, step_key)']
      : []),
    'CREATE INDEX cadre_usage_workflow ON cadre_usage (workflow_id)',
  ];
}

/** Adds each step's tenant and time to `cadre_usage`, for tenant budgets over a period (rows recorded before count for no tenant). */
export function usageTenantStatements(dialect: 'sqlite' | 'postgres'): string[] {
  return [
    'ALTER TABLE cadre_usage ADD COLUMN tenant TEXT',
    `ALTER TABLE cadre_usage ADD COLUMN recorded_at ${dialect === 'postgres' ? 'BIGINT' : 'INTEGER'}`,
    'CREATE INDEX cadre_usage_tenant ON cadre_usage (tenant, recorded_at)',
  ];
}

/** Inserts a step's usage row through `executor` (a transaction, or the driver); a second write of the same step keeps the first. */
export async function recordUsageIn(executor: SqlExecutor, entry: LedgerEntry): Promise<void> {
  await executor.query(
    `INSERT INTO cadre_usage (conversation_id, step_key, workflow_id, agent, model_route, input_tokens, output_tokens, cached_input_tokens, tenant, recorded_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (conversation_id, step_key) DO NOTHING`,
    [
      entry.conversationId,
      entry.stepKey,
      entry.workflowId,
      entry.agent,
      entry.modelRoute,
      entry.inputTokens,
      entry.outputTokens,
      entry.cachedInputTokens,
      entry.tenant ?? null,
      entry.recordedAt,
    ],
  );
}
