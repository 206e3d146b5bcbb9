import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { workflowPatches } from '../../src/workflows/workflow-patches';

const src = join(__dirname, '..', '..', 'src');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js|cjs|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Every call of Temporal's patch API in `code`, comments left out: `{ file, call }`. */
function patchCalls(file: string, code: string): Array<{ file: string; call: string }> {
  const withoutComments = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  return [...withoutComments.matchAll(/\b(patched|deprecatePatch)\s*\(([^)]*)\)/g)].map((match) => ({
    file: relative(src, file),
    call: `${match[1]}(${match[2]?.trim()})`,
  }));
}

describe("Temporal patches in Cadre's code", () => {
  const calls = sourceFiles(src).flatMap((file) => patchCalls(file, readFileSync(file, 'utf8')));

  it('are only the ones listed in the patch registry, each asked by its registry entry', () => {
    const listed = new Set(Object.keys(workflowPatches).map((name) => `workflowPatches.${name}.id`));
    const unlisted = calls.filter(({ call }) => !listed.has(call.slice(call.indexOf('(') + 1, -1)));
    expect(unlisted).toEqual([]);
  });

  it('list in the registry only patches that the code asks, each with a unique id and the release that removes it', () => {
    const entries = Object.entries(workflowPatches);
    expect(new Set(entries.map(([, patch]) => patch.id)).size).toBe(entries.length);
    for (const [name, patch] of entries) {
      expect({ name, removeIn: patch.removeIn }).toEqual({ name, removeIn: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
      expect(calls.some(({ call }) => call.includes(`workflowPatches.${name}.id`))).toBe(true);
    }
  });

  it('number none at 1.0: pinned runs keep the code they started with', () => {
    expect(Object.keys(workflowPatches)).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('are found by the check, in code but not in comments', () => {
    const code = "// patched('in-a-comment')\nif (patched('cadre-x')) run();\n/* deprecatePatch('y') */";
    expect(patchCalls(join(src, 'fixture.ts'), code)).toEqual([{ file: 'fixture.ts', call: "patched('cadre-x')" }]);
  });
});
