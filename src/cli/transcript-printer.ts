import type { ModelMessage } from 'ai';
import type { AgentHandle } from '../client/agent-handle';

const preview = (value: unknown, max = 160): string => {
  const text = (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
};

/** Lines a person reads for one transcript message: the prompt, text, tool calls and their results. */
export function describeMessage(message: ModelMessage): string[] {
  if (message.role === 'user' || message.role === 'system') {
    return [`> ${typeof message.content === 'string' ? message.content : preview(message.content)}`];
  }
  if (typeof message.content === 'string') return [`  ${message.content}`];
  const lines: string[] = [];
  for (const part of message.content) {
    if (part.type === 'text' && part.text) lines.push(`  ${part.text.split('\n').join('\n  ')}`);
    if (part.type === 'tool-call') lines.push(`  -> ${part.toolName}(${preview(part.input, 100)})`);
    if (part.type === 'tool-result') {
      const output = part.output as { type: string; value?: unknown; reason?: string };
      const shown = output.type === 'execution-denied' ? `denied: ${output.reason ?? ''}` : preview(output.value);
      lines.push(`  <- ${part.toolName}${output.type.startsWith('error') ? ' (error)' : ''}: ${shown}`);
    }
  }
  return lines;
}

/**
 * Prints each new transcript message of a run as it happens, until `done` resolves.
 * Reads the transcript by query, so it works from any machine that reaches Temporal.
 */
export async function followTranscript(
  handle: AgentHandle,
  done: Promise<unknown>,
  write: (line: string) => void,
  intervalMs = 250,
): Promise<void> {
  let finished = false;
  void done.then(
    () => (finished = true),
    () => (finished = true),
  );
  let next = 0;
  const hintAt = Date.now() + 10_000;
  let hinted = false;
  for (;;) {
    const wasFinished = finished;
    try {
      const page = await handle.transcript(next);
      for (const message of page.messages) for (const line of describeMessage(message)) write(line);
      next = page.total;
    } catch {
      // The run may not have had its first workflow task yet; the next poll tries again.
    }
    if (wasFinished) return;
    if (next === 0 && !hinted && Date.now() > hintAt) {
      hinted = true;
      write(
        '  (no worker has answered yet: is `npm run dev` or `npm run cadre -- worker` running against this server?)',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
