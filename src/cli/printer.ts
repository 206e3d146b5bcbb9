/**
 * The CLI's output: whole lines, and at a terminal a line being typed out by live text. A whole
 * line first ends a partial one, so retries and events never land in the middle of streamed text.
 */
export class Printer {
  private open = false;

  constructor(
    private readonly out: (text: string) => void = (text) => process.stdout.write(text),
    /** True when partial lines may be shown (a terminal). */
    readonly live = Boolean(process.stdout.isTTY),
  ) {}

  /** Writes one whole line. */
  line = (text: string): void => {
    this.end();
    this.out(`${text}\n`);
  };

  /** Continues the current partial line; `pad` indents each new line within it. */
  partial(text: string, pad: string): void {
    if (!this.open) this.out(pad);
    this.out(text.replace(/\n/g, `\n${pad}`));
    this.open = true;
  }

  /** Ends a partial line, if one is open. */
  end(): void {
    if (!this.open) return;
    this.out('\n');
    this.open = false;
  }
}
