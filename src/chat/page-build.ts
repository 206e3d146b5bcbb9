import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConfigurationError } from '../errors';
import { findProjectRoot } from '../server/package-roots';

/** Where the chat page's sources are: `web/chat-ui` of a checkout of Cadre; undefined in an installed package. */
export function findChatPageSources(): string | undefined {
  const candidate = join(findProjectRoot(__dirname), 'web', 'chat-ui');
  return existsSync(join(candidate, 'index.html')) ? candidate : undefined;
}

/** The page built into the package when it was packed (`dist/chat-ui`, beside the compiled `dist/src`). */
export function shippedChatPageDir(): string {
  return resolve(__dirname, '..', '..', 'chat-ui');
}

/** Default output folder of the built page: git-ignored `.cadre/chat-ui` of the checkout. */
export function defaultChatPageDir(source: string): string {
  return resolve(source, '..', '..', '.cadre', 'chat-ui');
}

/**
 * The chat page to serve. In a checkout of Cadre: built with Vite into `outDir` (default
 * `.cadre/chat-ui`), unless a build of the same sources is there (a hash of them is kept beside
 * it). In an installed package: the page it ships, when no `outDir` is asked for. Returns the folder.
 */
export async function buildChatPage(options: { outDir?: string } = {}): Promise<string> {
  const source = findChatPageSources();
  if (!source) {
    const shipped = shippedChatPageDir();
    if (options.outDir === undefined && existsSync(join(shipped, 'index.html'))) return shipped;
    throw new ConfigurationError(
      `The chat page is not shipped in this package (${join(shipped, 'index.html')} is missing), and its ` +
        `sources (${join(findProjectRoot(__dirname), 'web', 'chat-ui')}) are not there either. ` +
        'Reinstall Cadre from a package made by `npm pack` (its `prepack` script builds the page), ' +
        'or pass pageDir with a built page.',
    );
  }
  const outDir = options.outDir ?? defaultChatPageDir(source);
  const stamp = join(outDir, '.sources-hash');
  const hash = await hashSources(source);
  if (existsSync(join(outDir, 'index.html')) && (await readFile(stamp, 'utf8').catch(() => '')) === hash) return outDir;
  await runViteBuild(source, outDir);
  await writeFile(stamp, hash);
  return outDir;
}

/**
 * Runs Vite's build in its own Node process: Vite and its bundler check their plugin objects'
 * types, which fails inside a test runner's module sandbox. Vite is a devDependency, needed only
 * where the page is built.
 */
async function runViteBuild(source: string, outDir: string): Promise<void> {
  const script = `
    let vite;
    try { vite = await import('vite'); } catch (error) {
      console.error('Building the chat page needs vite (a devDependency of Cadre): run npm install. (' + error.message + ')');
      process.exit(2);
    }
    await vite.build({
      root: ${JSON.stringify(source)},
      configFile: false,
      logLevel: 'warn',
      base: './',
      mode: 'production',
      build: {
        outDir: ${JSON.stringify(outDir)},
        emptyOutDir: true,
        reportCompressedSize: false,
        rollupOptions: {
          // swr (under @ai-sdk/react) marks its modules 'use client', which means nothing in a plain page.
          onwarn(warning, warn) { if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning); },
        },
      },
    });`;
  const output = await new Promise<{ code: number | null; text: string }>((done, fail) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: source,
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, text }));
  });
  if (output.code !== 0) throw new Error(`Building the chat page failed: ${output.text.trim().slice(-2000)}`);
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
