import path from 'node:path';
import ts from 'typescript';
import { entryPoints } from '../helpers/public-api';

const root = path.join(__dirname, '..', '..');

/**
 * Each field of every settings, options and definition interface a user reaches from the entry
 * points: those exported, and those a public signature names (a field's type, a parameter), with
 * its JSDoc. An interface need not be exported to be in a user's hover.
 */
function settingsFields(): Array<{ field: string; doc: string | undefined }> {
  const entries = entryPoints();
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  const program = ts.createProgram([...entries.values()], config?.options ?? {});
  const checker = program.getTypeChecker();
  const fields = new Map<string, string | undefined>();
  const seen = new Set<ts.Symbol>();
  const source = path.join(root, 'src');
  const visit = (found: ts.Symbol): void => {
    const symbol = found.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(found) : found;
    if (seen.has(symbol)) return;
    seen.add(symbol);
    for (const declaration of symbol.declarations ?? []) {
      if (!declaration.getSourceFile().fileName.startsWith(source)) continue;
      if (ts.isInterfaceDeclaration(declaration) && /(Options|Settings|Definition)$/.test(symbol.name)) {
        for (const member of declaration.members) {
          if (!member.name) continue;
          const docs = ts.getJSDocCommentsAndTags(member).filter(ts.isJSDoc);
          fields.set(
            `${symbol.name}.${member.name.getText()}`,
            docs.map((doc) => doc.getText()).join('\n') || undefined,
          );
        }
      }
      visitTypesIn(declaration);
    }
  };
  // The types a declaration's signature names; function bodies are the implementation, not the surface.
  const visitTypesIn = (node: ts.Node): void => {
    if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node)) {
      const name = ts.isTypeReferenceNode(node) ? node.typeName : node.expression;
      const referenced = checker.getSymbolAtLocation(name);
      if (referenced) visit(referenced);
    }
    ts.forEachChild(node, (child) => {
      if ((ts.isFunctionLike(node) && child === (node as ts.FunctionLikeDeclaration).body) || ts.isBlock(child)) return;
      if (ts.isPropertyDeclaration(node) && child === node.initializer) return;
      visitTypesIn(child);
    });
  };
  for (const file of entries.values()) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file) as ts.SourceFile);
    for (const exported of module ? checker.getExportsOfModule(module) : []) visit(exported);
  }
  return [...fields].map(([field, doc]) => ({ field, doc }));
}

describe("the public settings and options, as an AI SDK user reads them in an editor's hover", () => {
  const fields = settingsFields();

  it('are found: every settings, options and definition interface the entry points export or their signatures name', () => {
    expect(fields.length).toBeGreaterThan(200);
  });

  it('document every field', () => {
    expect(fields.filter(({ doc }) => doc === undefined).map(({ field }) => field)).toEqual([]);
  });

  it('give a default as an @default tag, not in the prose', () => {
    const inProse = fields.filter(
      ({ doc }) =>
        doc &&
        /(^|[.;:,] |\* |\()[Dd]efaults?\b(?! ([a-z]+ )?(settings|policy|route|queue)\b)/m.test(doc) &&
        !doc.includes('@default'),
    );
    expect(inProse.map(({ field }) => field)).toEqual([]);
  });
});
