import fs from 'node:fs';
import path from 'node:path';
import { documentationPages, headingAnchors, proseOf, readPage, root } from './markdown-pages';

/** Every link of a page's prose (inline links and images), with its line. */
function linksOf(page: string): Array<{ target: string; line: number }> {
  const links: Array<{ target: string; line: number }> = [];
  for (const [index, line] of proseOf(page).split('\n').entries()) {
    for (const match of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      links.push({ target: match[1] as string, line: index + 1 });
    }
  }
  return links;
}

/** Why a link is broken, or undefined when it resolves. */
function brokenReason(page: string, target: string): string | undefined {
  if (/^[a-z][a-z+.-]*:/i.test(target)) return undefined;
  const [file = '', anchor] = target.split('#');
  const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
  if (!fs.existsSync(path.join(root, resolved))) return `${resolved} does not exist`;
  if (anchor === undefined) return undefined;
  if (!resolved.endsWith('.md')) return `an anchor into ${resolved}, which is not a markdown page`;
  const anchors = headingAnchors(resolved);
  return anchors.has(anchor) ? undefined : `${resolved} has no heading #${anchor}`;
}

describe('the links of the README and docs/', () => {
  it('all reach an existing file, and a heading of it where they name one', () => {
    const broken = documentationPages().flatMap((page) =>
      linksOf(page).flatMap(({ target, line }) => {
        const reason = brokenReason(page, target);
        return reason ? [`${page}:${line}: (${target}): ${reason}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('are checked on every page, each reached from the README', () => {
    const fromReadme = new Set(
      linksOf('README.md').map(({ target }) => path.posix.normalize(target.split('#')[0] as string)),
    );
    const unreached = documentationPages().filter((page) => page !== 'README.md' && !fromReadme.has(page));
    expect(unreached).toEqual([]);
  });

  it('leave the README short enough to read at once: at most 400 lines', () => {
    expect(readPage('README.md').split('\n').length).toBeLessThanOrEqual(400);
  });
});
