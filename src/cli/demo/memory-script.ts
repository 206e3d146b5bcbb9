import type { LanguageModelV4Content, LanguageModelV4Prompt } from '@ai-sdk/provider';

/** The file the demo model keeps its notes in. */
const notesPath = '/memories/notes.md';

/**
 * The demo model's script for agents with the memory tool: it views its notes first; "remember
 * ..." adds a line to them; any other message is answered from them. Deterministic, offline, and
 * labelled like every demo answer.
 */
export function demoMemoryAnswer(
  prompt: LanguageModelV4Prompt,
  label: string,
  userText: (message: LanguageModelV4Prompt[number]) => string,
): LanguageModelV4Content[] {
  const last = prompt[prompt.length - 1];
  const turn = [...prompt].reverse().find((message) => message.role === 'user');
  const said = turn ? userText(turn) : '';
  const fact = /^remember\b[:,]?\s*(.+)$/i.exec(said)?.[1]?.trim();
  const call = (input: Record<string, unknown>): LanguageModelV4Content => ({
    type: 'tool-call',
    toolCallId: `demo-memory-${prompt.length}`,
    toolName: 'memory',
    input: JSON.stringify(input),
  });
  if (last?.role !== 'tool') return [call({ command: 'view', path: notesPath })];
  const result = last.content.find((part) => part.type === 'tool-result');
  const output = result && 'output' in result ? (result.output as { value?: unknown }).value : undefined;
  const text = typeof output === 'string' ? output : '';
  if (text.startsWith("Here's the content of")) {
    const notes = text
      .split('\n')
      .slice(1)
      .map((line) => line.replace(/^\s*\d+\t/, ''));
    if (fact)
      return [call({ command: 'insert', path: notesPath, insert_line: notes.length, insert_text: `- ${fact}` })];
    return [{ type: 'text', text: `${label} From my notes (${notesPath}):\n${notes.join('\n')}` }];
  }
  if (text.startsWith('The path') && text.includes('does not exist')) {
    if (fact) return [call({ command: 'create', path: notesPath, file_text: `- ${fact}\n` })];
    return [{ type: 'text', text: `${label} I have no notes yet. Tell me "remember ..." and I will keep it.` }];
  }
  return [{ type: 'text', text: `${label} ${fact ? `Saved to memory: ${fact}` : text}` }];
}
