import fs from 'node:fs';
import path from 'node:path';

/** The repository's root, where README.md and docs/ live. */
export const root = path.join(__dirname, '..', '..');

/** Marks the next ```ts block as a fragment: shown to readers, not compiled. */
export const fragmentMarker = '<!-- fragment -->';

/** A fenced code block of a markdown page, with the 1-based line of its first code line. */
export interface CodeBlock {
  page: string;
  language: string;
  line: number;
  code: string;
  fragment: boolean;
}

/** The user documentation: README.md, CONTRIBUTING.md, CHANGELOG.md and every page of docs/, as paths from the root. */
export function documentationPages(): string[] {
  const atRoot = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].filter((page) =>
    fs.existsSync(path.join(root, page)),
  );
  const docs = fs
    .readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return [...atRoot, ...docs];
}

/** Reads a page by its path from the root. */
export function readPage(page: string): string {
  return fs.readFileSync(path.join(root, page), 'utf8');
}

/** Every fenced code block of a page, in order; a block right after the fragment marker is flagged. */
export function codeBlocks(page: string, text = readPage(page)): CodeBlock[] {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(\S*)\s*$/.exec(lines[index] as string);
    if (!open) continue;
    const end = lines.findIndex((line, at) => at > index && line.startsWith('```'));
    if (end < 0) throw new Error(`${page}:${index + 1}: a code block opens here and never closes.`);
    const before = lines
      .slice(0, index)
      .reverse()
      .find((line) => line.trim() !== '');
    blocks.push({
      page,
      language: open[1] ?? '',
      line: index + 2,
      code: lines.slice(index + 1, end).join('\n'),
      fragment: before?.trim() === fragmentMarker,
    });
    index = end;
  }
  return blocks;
}

/** A page's text with its fenced code blocks and inline code blanked, so links are read from prose only. */
export function proseOf(page: string): string {
  return readPage(page)
    .replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, ' '))
    .replace(/``[^`\n]+``|`[^`\n]+`/g, (code) => ' '.repeat(code.length));
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function headingAnchors(page: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const original = readPage(page).split('\n');
  const prose = proseOf(page).split('\n');
  for (const [index, line] of prose.entries()) {
    if (!/^#{1,6} /.test(line)) continue;
    const text = (original[index] as string).replace(/^#{1,6} +/, '').trim();
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/**
 * The TypeScript examples of the README and docs/ that are meant to compile (not fragments), by the
 * file each is compiled as under `folder`: one folder per page, so blocks of a page can import each
 * other, and a block whose first line is a comment naming a file (`// my-agents.ts`) takes that name.
 */
export function typescriptExamples(folder: string): Map<string, CodeBlock> {
  const blocks = documentationPages().flatMap((page) =>
    codeBlocks(page).filter((block) => block.language === 'ts' && !block.fragment),
  );
  return new Map(
    blocks.map((block, index) => {
      const named = /^\/\/ ([\w.-]+\.ts)\s*$/.exec(block.code.split('\n')[0] ?? '');
      const file = path.join(folder, block.page.replace(/[/.]/g, '-'), named?.[1] ?? `block-${block.line}-${index}.ts`);
      return [file, block];
    }),
  );
}
