import fs from 'node:fs';
import path from 'node:path';
import { publicNames } from '../helpers/public-api';

const listFile = path.join(__dirname, 'public-api.json');

describe("the package's public names", () => {
  const names = publicNames();

  it('are, for each entry point, exactly those listed in public-api.json (a new export is a decision: list it there)', () => {
    const listed = JSON.parse(fs.readFileSync(listFile, 'utf8')) as Record<string, string[]>;
    expect(names).toEqual(listed);
  });

  it('name each thing once: no entry point exports a name another entry point exports', () => {
    const owners = new Map<string, string[]>();
    for (const [entry, list] of Object.entries(names))
      for (const name of list) owners.set(name, [...(owners.get(name) ?? []), entry]);
    expect([...owners].filter(([, entries]) => entries.length > 1)).toEqual([]);
  });

  it('keep internal helpers and the codec servers out of the entry points that do not own them', () => {
    for (const internal of ['summaryPrefix', 'droppedMessagesNote', 'demoLabel', 'demoRoute', 'DemoModel']) {
      for (const [entry, list] of Object.entries(names))
        expect([entry, list.includes(internal)]).toEqual([entry, false]);
    }
    expect(names['cadre/client']).not.toContain('createCodecServer');
    expect(names['cadre/codec']).toEqual(expect.arrayContaining(['createCodecServer', 'startCodecServer']));
  });

  it('give cadre/workflows every signal, query and update the agent workflow handles', () => {
    const definitions = fs.readFileSync(path.join(__dirname, '..', '..', 'src', 'protocol', 'definitions.ts'), 'utf8');
    const handlers = [...definitions.matchAll(/export const (\w+) = define(?:Signal|Query|Update)/g)].map(
      (match) => match[1],
    );
    expect(handlers.length).toBeGreaterThan(10);
    expect(names['cadre/workflows']).toEqual(expect.arrayContaining(handlers));
  });
});
