import type {
  LanguageModelV4FunctionTool,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
} from '@ai-sdk/provider';
import type { JsonSchema } from './fields';
import { actingVerb, inputLabel } from './plan';
import { oneLine, previewChars, previewValue } from '../../protocol/text-preview';

/** A call the demo model made in this turn, with its result once there is one. */
export interface TurnCall {
  toolName: string;
  input: Record<string, unknown>;
  output?: LanguageModelV4ToolResultOutput;
}

/** The calls made since the turn's user message, in order, each with its result. */
export function callsOfTurn(turn: LanguageModelV4Prompt): TurnCall[] {
  const calls = new Map<string, TurnCall>();
  for (const message of turn) {
    if (message.role !== 'assistant' && message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') {
        const input = typeof part.input === 'object' && part.input !== null ? part.input : {};
        calls.set(part.toolCallId, { toolName: part.toolName, input: input as Record<string, unknown> });
      } else if (part.type === 'tool-result') {
        const call = calls.get(part.toolCallId) ?? { toolName: part.toolName, input: {} };
        calls.set(part.toolCallId, { ...call, output: part.output });
      }
    }
  }
  return [...calls.values()];
}

/** Whether a call ended without doing its work: failed or denied. */
export function fellThrough(call: TurnCall): boolean {
  const type = call.output?.type;
  return type === 'execution-denied' || type === 'error-text' || type === 'error-json';
}

/**
 * The turn's final answer: a sentence for each call that changed something (or was denied, or
 * failed), what was left undone when a call fell through, then one line per call with its result.
 */
export function summarizeTurn(
  calls: TurnCall[],
  tools: LanguageModelV4FunctionTool[],
  notCalled: string[],
  label: string,
): string {
  const schemaOf = (name: string) => (tools.find((tool) => tool.name === name)?.inputSchema ?? {}) as JsonSchema;
  const sentences: string[] = [];
  const lines: string[] = [];
  for (const call of calls) {
    const named = inputLabel(call.input, schemaOf(call.toolName));
    const verb = actingVerb(call.toolName);
    const output = call.output;
    if (output?.type === 'execution-denied') {
      const reason = output.reason ? ` (${output.reason})` : '';
      sentences.push(
        verb === undefined
          ? `${call.toolName}${named ? ` of ${named}` : ''} was denied${reason}.`
          : `${call.toolName} was denied${reason}, so ${named || 'it'} was not ${pastOf(verb).participle}.`,
      );
    } else if (fellThrough(call)) {
      sentences.push(`${call.toolName}${named ? ` of ${named}` : ''} failed.`);
    } else if (verb !== undefined && output !== undefined) {
      sentences.push(`${capitalize(pastOf(verb).simple)}${named ? ` ${named}` : ''}.`);
    }
    // A subagent on the demo model answers with the label too; once at the start of the answer is enough.
    const text = output ? outputText(output) : 'no result';
    const result = text.startsWith(`${label} `) ? text.slice(label.length + 1) : text;
    lines.push(`- ${call.toolName}${named ? `(${named})` : ''}: ${result}`);
  }
  if (notCalled.length > 0) sentences.push(`So I stopped there and did not call ${notCalled.join(', ')}.`);
  // One look-up answers on one line; a subagent's answer then reads well inside its parent's.
  if (sentences.length === 0 && lines.length === 1) return `${label} ${lines[0]!.slice(2)}`;
  const headline =
    sentences.length > 0 ? sentences.join(' ') : `I called ${listed(calls.map((call) => call.toolName))}:`;
  return `${label} ${headline}\n${lines.join('\n')}`;
}

function outputText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case 'execution-denied':
      return `denied${output.reason ? `: ${output.reason}` : ''}`;
    case 'error-text':
      return `error: ${oneLine(output.value.replace(/^Error: /, ''), previewChars)}`;
    case 'error-json':
      return `error: ${previewValue(output.value)}`;
    case 'content':
      return previewValue(output.value.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join(' '));
    case 'json': {
      const value = output.value;
      // A list of names reads better as a list than as JSON.
      if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
        return previewValue(value.length > 0 ? value.join(', ') : '(none)');
      // So does a flat record: "words: 13; characters: 69".
      if (isFlatRecord(value))
        return previewValue(
          Object.entries(value)
            .map(([key, item]) => `${key}: ${String(item)}`)
            .join('; '),
        );
      return previewValue(value);
    }
    case 'text':
      // One line per call: a file's text or a log reads as a preview, not as a block.
      return oneLine(output.value, previewChars);
  }
}

const irregular: Record<string, { simple: string; participle: string }> = {
  pay: { simple: 'paid', participle: 'paid' },
  send: { simple: 'sent', participle: 'sent' },
  write: { simple: 'wrote', participle: 'written' },
  buy: { simple: 'bought', participle: 'bought' },
  set: { simple: 'set', participle: 'set' },
  run: { simple: 'ran', participle: 'run' },
  drop: { simple: 'dropped', participle: 'dropped' },
  stop: { simple: 'stopped', participle: 'stopped' },
  cancel: { simple: 'cancelled', participle: 'cancelled' },
  transfer: { simple: 'transferred', participle: 'transferred' },
};

function pastOf(verb: string): { simple: string; participle: string } {
  const known = irregular[verb];
  if (known) return known;
  const past = verb.endsWith('e') ? `${verb}d` : /[^aeiou]y$/.test(verb) ? `${verb.slice(0, -1)}ied` : `${verb}ed`;
  return { simple: past, participle: past };
}

function isFlatRecord(value: unknown): value is Record<string, string | number | boolean | null> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const items = Object.values(value);
  return items.length > 0 && items.every((item) => item === null || typeof item !== 'object');
}

function listed(names: string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? 'nothing');
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
