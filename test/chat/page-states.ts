import type { Page } from 'playwright-core';

/** The state of each tool part on the chat page (`data-state`), by its test id. */
export async function toolStates(page: Page): Promise<Record<string, string>> {
  return Object.fromEntries(
    await page
      .locator('[data-state]')
      .evaluateAll((items) => items.map((item) => [item.getAttribute('data-testid'), item.getAttribute('data-state')])),
  ) as Record<string, string>;
}
