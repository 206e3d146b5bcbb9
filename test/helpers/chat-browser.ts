import { type Browser, chromium, type Page, type Request } from 'playwright-core';
import { waitFor } from './wait';

const { chromiumPath } = require('../../scripts/setup/chromium.cjs') as { chromiumPath(): string | undefined };

/** Chromium for the chat page's browser tests, headless; fails saying how to install it when it is missing. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) {
    throw new Error(
      "No Chromium for the browser tests: run `node scripts/setup.cjs` as root (it installs Debian's chromium), or set CADRE_CHROMIUM.",
    );
  }
  return await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}

/** The chat as the page shows it, one `role: text` line per message (its text paragraphs joined by a space). */
export async function shownChat(page: Page): Promise<string[]> {
  return await page
    .locator('.message')
    .evaluateAll((items) =>
      items.map(
        (item) =>
          `${item.getAttribute('data-role')}: ${[...item.querySelectorAll('p')].map((text) => text.textContent ?? '').join(' ')}`,
      ),
    );
}

/** Types `text` into the chat's input and presses Send. */
export async function sendFromPage(page: Page, text: string): Promise<void> {
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('send').click();
}

/** Waits until the page shows `lines` (as {@link shownChat} reads them) and works on nothing; `seen` collects what it showed meanwhile. */
export async function waitForShownChat(
  page: Page,
  lines: string[],
  what: string,
  seen: string[][] = [],
): Promise<void> {
  let shown: string[] = [];
  const settled = async () => {
    shown = await shownChat(page);
    seen.push(shown);
    return JSON.stringify(shown) === JSON.stringify(lines) && (await page.getByTestId('busy').count()) === 0;
  };
  await waitFor(settled, `${what}: ${JSON.stringify(lines)}`, 30_000).catch((error: Error) => {
    throw new Error(`${error.message} (the page shows ${JSON.stringify(shown)})`);
  });
}

/**
 * Follows the page's requests to the chat endpoints; `idle()` waits until none is open, so that no
 * handler still works on Temporal when a test closes its environment.
 */
export function chatRequests(page: Page): { idle(): Promise<void> } {
  const open = new Set<Request>();
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) open.add(request);
  });
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
  return { idle: () => waitFor(() => open.size === 0, "the page's open requests to end", 30_000) };
}
