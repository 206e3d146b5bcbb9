import { runPlacement } from '../../src/client/run-placement';
import { ConfigurationError } from '../../src/errors';
import { tenantBudgetProblem, tenantPeriodRelief, tenantPeriodStart } from '../../src/protocol/tenant-budget';

const now = new Date('2026-12-06T13:45:10.000Z');

describe("a tenant budget's period", () => {
  it('starts a day at midnight UTC and a month on the 1st, and names when the next begins', () => {
    expect(tenantPeriodStart('day', now).toISOString()).toBe('2026-12-06T00:00:00.000Z');
    expect(tenantPeriodStart('month', now).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(tenantPeriodRelief('day', now)).toBe('The next day starts at 2026-12-07T00:00:00.000Z');
    expect(tenantPeriodRelief('month', new Date('2026-12-31T23:00:00Z'))).toBe(
      'The next month starts at 2027-01-01T00:00:00.000Z',
    );
  });

  it('is a window that ends now for a duration', () => {
    expect(tenantPeriodStart('30 days', now).toISOString()).toBe('2026-11-06T13:45:10.000Z');
    expect(tenantPeriodStart(60_000, now).toISOString()).toBe('2026-12-06T13:44:10.000Z');
    expect(tenantPeriodRelief('12 hours', now)).toBe('Steps count for 12 hours after they ran');
  });
});

describe('a tenant budget that cannot be used', () => {
  it('is refused with what was wrong and what to use', () => {
    expect(tenantBudgetProblem('acme', { maxTokens: 10, per: 'fortnight' })).toBe(
      "Tenant 'acme' has budget.per \"fortnight\". Use 'day' or 'month' (UTC calendar periods) or a duration such as '30 days'.",
    );
    expect(tenantBudgetProblem('acme', { per: 'day' })).toBe(
      "Tenant 'acme' has a budget with no limit; give it maxTokens, maxCostUsd or maxModelCalls.",
    );
    expect(tenantBudgetProblem('acme', { maxTokens: -1, per: 'day' })).toBe(
      "Tenant 'acme' has budget.maxTokens -1. Use a number above 0.",
    );
    expect(tenantBudgetProblem('acme', { maxDollars: 5, per: 'day' } as never)).toContain(
      'budget.maxDollars, which is no budget',
    );
    expect(tenantBudgetProblem('acme', { maxCostUsd: 5, per: 'month' })).toBeUndefined();
  });
});

describe('a run placed for a tenant with a budget', () => {
  it("carries its tenant's budget from the client's limits, per tier", () => {
    const placement = runPlacement({
      tenantOf: (context) => ({ id: String(context?.org), weight: context?.org === 'gold' ? 3 : 1 }),
      runtimeContext: { org: 'gold' },
      defaultPriority: 'normal',
      budgetOf: (tenant) => ({ maxCostUsd: tenant.weight === 3 ? 500 : 50, per: 'month' }),
    });
    expect(placement.tenant).toEqual({ id: 'gold', weight: 3, budget: { maxCostUsd: 500, per: 'month' } });
  });

  it('starts nothing when the budget cannot be used', () => {
    const place = () =>
      runPlacement({ tenant: 'acme', defaultPriority: 'normal', budgetOf: { maxTokens: 0, per: 'day' } });
    expect(place).toThrow(ConfigurationError);
    expect(place).toThrow("Tenant 'acme' has budget.maxTokens 0. Use a number above 0. Nothing was started.");
  });
});
