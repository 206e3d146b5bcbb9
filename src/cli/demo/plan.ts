import type { LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import { type FieldKind, fieldKind, fillInput, type JsonSchema, namedKinds } from './fields';
import { contentWords, readMessage, sharesWord, stem } from './reading';

/** One tool call the demo model means to make, with its input and a short label of it. */
export interface PlannedCall {
  toolName: string;
  input: Record<string, unknown>;
  /** The named values of the input ("notes/old.txt", "120 to ACME"), for answers. */
  label: string;
  /** Whether the call changes something (deletes, pays, sends): such calls come last. */
  acting: boolean;
}

/**
 * The demo model's calls for one user message, in steps as a person would make them: look
 * around (tools without input), then look closer (tools given what the message names), then
 * act. `unmet` lists the tools left out because the message names nothing they need.
 */
export interface DemoPlan {
  steps: PlannedCall[][];
  unmet: Array<{ toolName: string; needs: FieldKind[] }>;
}

/** Verbs of tools that change something; by stem, so "deletes" and "deleting" count. */
const actingVerbs = new Set(
  (
    'delete remove erase destroy drop wipe purge clear pay charge refund transfer send email post publish write ' +
    'create update edit modify set move rename upload deploy cancel kill stop restart buy order book approve reject ' +
    'insert append save overwrite submit execute run install uninstall'
  )
    .split(' ')
    .map(stem),
);
/** Words a user says for one action, so "remove the file" asks delete_file. */
const synonyms: string[][] = [
  ['delete', 'remove', 'erase', 'trash', 'wipe'],
  ['pay', 'settle', 'payment'],
  ['send', 'mail', 'email', 'message'],
  ['write', 'save', 'store'],
  ['create', 'make', 'add', 'new'],
  ['move', 'rename'],
];

/** The verb of a tool name that changes something ("delete" of delete_file), if any. */
export function actingVerb(toolName: string): string | undefined {
  return [...contentWords(toolName)].find((word) => actingVerbs.has(stem(word)));
}

/** Plans the demo model's calls for `message` to an agent with `tools` and `instructions`. */
export function planTurn(tools: LanguageModelV4FunctionTool[], message: string, instructions: string): DemoPlan {
  const reading = readMessage(message);
  const instructionWords = contentWords(instructions);
  const looks: Array<{ call: PlannedCall; topic: Set<string>; asked: boolean }> = [];
  const reads: PlannedCall[] = [];
  const acts: PlannedCall[] = [];
  const topics: Array<Set<string>> = [];
  const unmet: DemoPlan['unmet'] = [];
  for (const tool of tools) {
    const schema = tool.inputSchema as JsonSchema;
    const nameWords = contentWords(tool.name);
    const firstSentence = (tool.description ?? '').split(/(?<=[.!?])\s/)[0] ?? '';
    const topic = new Set([...nameWords, ...contentWords(firstSentence)]);
    const asked = sharesWord(reading.words, topic);
    const relevant = asked || instructions.includes(tool.name) || sharesWord(instructionWords, nameWords);
    const verb = actingVerb(tool.name);
    // Something that changes the world only when the message asks for that action.
    if (verb !== undefined && !sharesWord(reading.words, actionWords(verb))) continue;
    const filled = fillInput(schema, reading, { freeText: verb === undefined, defaultZone: relevant });
    if (!('input' in filled)) {
      const needs = filled.missing.map((each) => each.kind);
      if (relevant || needs.some((kind) => namedKinds.has(kind))) unmet.push({ toolName: tool.name, needs });
      continue;
    }
    const required = schema.required ?? [];
    // A value the message names ("notes/old.txt", "Europe/Paris") is reason enough to use the tool.
    const namesItsInput = required.some((field) => namedKinds.has(fieldKind(field, schema.properties?.[field] ?? {})));
    if (!relevant && !namesItsInput && verb === undefined) continue;
    const call = { toolName: tool.name, input: filled.input, label: inputLabel(filled.input, schema), acting: !!verb };
    if (verb === undefined && required.length === 0) {
      looks.push({ call, topic, asked });
      continue;
    }
    (verb !== undefined ? acts : reads).push(call);
    topics.push(topic);
  }
  // Looking around first when the message asks for it, when the other calls are about the same
  // things (list the files before reading one), or when there is nothing else to do.
  const looked = looks
    .filter(({ topic, asked }) => asked || topics.length === 0 || topics.some((other) => sharesWord(topic, other)))
    .map((look) => look.call);
  return { steps: [looked, reads, acts].filter((step) => step.length > 0), unmet };
}

function actionWords(verb: string): Set<string> {
  const group = synonyms.find((words) => words.some((word) => stem(word) === stem(verb)));
  return new Set(group ?? [verb]);
}

/** The values of `input` a message named, joined for an answer: "notes/old.txt", "120 to ACME". */
export function inputLabel(input: Record<string, unknown>, schema: JsonSchema): string {
  const named = Object.entries(input).filter(([field]) =>
    namedKinds.has(fieldKind(field, schema.properties?.[field] ?? {})),
  );
  const kindOf = (field: string) => fieldKind(field, schema.properties?.[field] ?? {});
  const recipient = named.find(([field]) => kindOf(field) === 'recipient');
  const rest = named.filter(([field]) => kindOf(field) !== 'recipient').map(([, value]) => String(value));
  if (recipient === undefined) return rest.join(', ');
  return rest.length > 0 ? `${rest.join(', ')} to ${String(recipient[1])}` : String(recipient[1]);
}
