/** `text` on one line, cut to `max` characters with `...`: for summaries and details in Temporal UI. */
export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 3)}...` : line;
}
