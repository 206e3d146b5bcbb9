import { spawn } from 'node:child_process';
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
