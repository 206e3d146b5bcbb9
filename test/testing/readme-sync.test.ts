import fs from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '..', '..');
const marker = '<!-- readme-example: test/testing/readme-example.test.ts -->';

/** The code block after the marker on a page: docs/testing.md shows the test, the README one `it` of it. */
function readmeExample(page = 'docs/testing.md'): string {
  const readme = fs.readFileSync(path.join(root, page), 'utf8');
  const at = readme.indexOf(marker);
  if (at < 0) throw new Error(`${page} lost its marker ${marker}; put it back above the testing example.`);
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!block?.[1]) throw new Error(`${page} has no \`\`\`ts block after the testing example marker.`);
  return block[1];
}

describe('the testing example of docs/testing.md and the README', () => {
  it('is the test file that runs in the suite, with the package imports a user writes', () => {
    const file = fs
      .readFileSync(path.join(__dirname, 'readme-example.test.ts'), 'utf8')
      .replace("from '../../src/testing';", "from 'cadre/testing';")
      .replace("from '../../src';", "from 'cadre';");
    expect(readmeExample()).toBe(file);
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const shown = /```ts\n(it\('purges once someone approves'[\s\S]*?)```/.exec(readme)?.[1] ?? 'nothing';
    expect(file).toContain(shown.replace(/^/gm, '  ').replace(/^ {2}$/gm, ''));
  });

  it('shows the failure example as the test file that runs in the suite, each test within 15 lines', () => {
    const page = fs.readFileSync(path.join(root, 'docs/testing.md'), 'utf8');
    const at = page.indexOf('<!-- failure-example: test/testing/failure-example.test.ts -->');
    expect(at).toBeGreaterThan(0);
    const shown = /```ts\n([\s\S]*?)```/.exec(page.slice(at))?.[1];
    const file = fs
      .readFileSync(path.join(__dirname, 'failure-example.test.ts'), 'utf8')
      .replace("from '../../src/testing';", "from 'cadre/testing';")
      .replace("from '../../src';", "from 'cadre';");
    expect(shown).toBe(file);
    const bodies = file.split(/\n {2}it\(/).slice(1);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(body.split('\n').indexOf('  });') - 1).toBeLessThanOrEqual(15);
  });

  it('keeps each test within 15 lines', () => {
    const bodies = readmeExample()
      .split(/\n {2}it\(/)
      .slice(1);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(body.split('\n').indexOf('  });') - 1).toBeLessThanOrEqual(15);
  });
});
