import path from 'node:path';
import ts from 'typescript';
import { entryPoints } from '/work/wt/test/helpers/public-api';
const root = '/work/wt';
const entries = entryPoints();
const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
const program = ts.createProgram([...entries.values()], config?.options ?? {});
const checker = program.getTypeChecker();
const seen = new Set<string>();
let total = 0; const missing: string[] = []; const proseDefault: string[] = []; const tagged: string[] = [];
for (const [, file] of entries) {
  const source = program.getSourceFile(file)!;
  const symbol = checker.getSymbolAtLocation(source)!;
  for (let exp of checker.getExportsOfModule(symbol)) {
    if (exp.flags & ts.SymbolFlags.Alias) exp = checker.getAliasedSymbol(exp);
    if (!/(Options|Settings|Definition)$/.test(exp.name)) continue;
    for (const decl of exp.declarations ?? []) {
      if (!ts.isInterfaceDeclaration(decl)) continue;
      if (!decl.getSourceFile().fileName.startsWith(root + '/src')) continue;
      for (const member of decl.members) {
        if (!ts.isPropertySignature(member) && !ts.isMethodSignature(member)) continue;
        const key = `${exp.name}.${member.name.getText()}`;
        if (seen.has(key)) continue; seen.add(key);
        total++;
        const docs = ts.getJSDocCommentsAndTags(member);
        if (docs.length === 0) missing.push(`${key} (${path.relative(root, decl.getSourceFile().fileName)})`);
        const text = docs.map((d) => d.getText()).join('\n');
        if (/\bDefault/.test(text) && !/@default/.test(text)) proseDefault.push(key + ' :: ' + (text.match(/Default[^.]*\./)?.[0] ?? text.slice(text.indexOf('Default'), text.indexOf('Default')+80)).replace(/\n\s*\*?/g,' '));
        if (/@default/.test(text)) tagged.push(key);
      }
    }
  }
}
console.log('fields', total, 'missing', missing.length);
console.log(missing.join('\n')); console.log('prose default', proseDefault.length, 'tagged', tagged.length); console.log(proseDefault.join('\n'));
