import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';
import { agentWorkflowsPath } from '../../src/worker/workflow-bundle-options';

/** Cadre's own modules in the workflow bundle: the value imports reachable from the workflows' index. */
function workflowModules(): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      const specifier =
        (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) ||
        (ts.isExportDeclaration(statement) && !statement.isTypeOnly)
          ? statement.moduleSpecifier
          : undefined;
      if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier.text);
      visit(require.resolve(target));
    }
  };
  visit(agentWorkflowsPath);
  return [...seen];
}

/** Module-scope declarations that would carry one run's state into another once modules are shared. */
function moduleState(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    const mutable = !(list.flags & ts.NodeFlags.Const);
    for (const declaration of list.declarations) {
      const readonlyType = /^Readonly(Map|Set|Array)\b|^readonly /.test(declaration.type?.getText(source) ?? '');
      const collection =
        declaration.initializer &&
        ts.isNewExpression(declaration.initializer) &&
        /^(Map|Set|WeakMap|WeakSet)$/.test(declaration.initializer.expression.getText(source));
      if (mutable || (collection && !readonlyType)) found.push(`${file}: ${declaration.getText(source).slice(0, 80)}`);
    }
  }
  return found;
}

describe("Cadre's workflow modules, shared by every run on a worker", () => {
  it('are found by following the imports of the workflows index', () => {
    const names = workflowModules().map((file) => file.split('/src/')[1]);
    expect(names).toEqual(
      expect.arrayContaining(['workflows/agent-workflow.ts', 'workflows/agent-loop.ts', 'protocol/definitions.ts']),
    );
  });

  it('hold no state at module scope: no let or var, and no collection that is not read-only', () => {
    expect(workflowModules().flatMap(moduleState)).toEqual([]);
  });

  it('flags a module-scope let and a mutable Map, as the check above relies on', () => {
    const file = require.resolve('./fixtures/module-state.fixture.ts');
    expect(moduleState(file)).toEqual([
      expect.stringContaining('current: string | undefined'),
      expect.stringContaining('seen = new Map'),
    ]);
  });
});
