import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** Where the chat page's sources are: `web/chat-ui` of this checkout. */
export function chatPageSourceDir(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, 'web', 'chat-ui');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    if (dirname(dir) === dir) {
      throw new Error(
        `The chat page's sources (web/chat-ui/index.html) are not above ${__dirname}; run from a checkout of Cadre, or pass pageDir with a built page.`,
      );
    }
  }
}

/** Default output folder of the built page: git-ignored `.cadre/chat-ui` of the checkout. */
export function defaultChatPageDir(): string {
  return resolve(chatPageSourceDir(), '..', '..', '.cadre', 'chat-ui');
}

/**
 * Builds the chat page with Vite into `outDir` (default `.cadre/chat-ui`), unless a build of the
 * same sources is already there: a hash of the sources is kept beside the output. Returns `outDir`.
 */
export async function buildChatPage(options: { outDir?: string } = {}): Promise<string> {
  const source = chatPageSourceDir();
  const outDir = options.outDir ?? defaultChatPageDir();
  const stamp = join(outDir, '.sources-hash');
  const hash = await hashSources(source);
  if (existsSync(join(outDir, 'index.html')) && (await readFile(stamp, 'utf8').catch(() => '')) === hash) return outDir;
  let vite: { build(config: Record<string, unknown>): Promise<unknown> };
  try {
    // Loaded by name at run time: vite is a devDependency, needed only where the page is built.
    const specifier = 'vite';
    vite = (await import(specifier)) as typeof vite;
  } catch (error) {
    throw new Error(
      `Building the chat page needs vite (a devDependency of Cadre): run npm install. (${(error as Error).message})`,
    );
  }
  await vite.build({
    root: source,
    configFile: false,
    logLevel: 'warn',
    base: './',
    mode: 'production',
    build: {
      outDir,
      emptyOutDir: true,
      reportCompressedSize: false,
      rollupOptions: {
        // swr (under @ai-sdk/react) marks its modules 'use client', which means nothing in a plain page.
        onwarn(warning: { code?: string }, warn: (warning: unknown) => void) {
          if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
        },
      },
    },
  });
  await writeFile(stamp, hash);
  return outDir;
}

async function hashSources(source: string): Promise<string> {
  const hash = createHash('sha256');
  const files = (await readdir(source, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) {
    hash.update(file.slice(source.length));
    hash.update(await readFile(file));
  }
  return hash.digest('hex');
}
