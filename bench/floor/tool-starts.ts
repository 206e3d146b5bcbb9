/**
 * When each approved tool call of one side started, by the id in its input. A worker process
 * forwards every start to the bench's process (`onStart`), where the approval measures read it.
 */
export class ToolStarts {
  private readonly starts = new Map<string, number>();
  /** Called for each start noted here; a worker process sends it to the bench's process. */
  onStart?: (id: string, at: number) => void;

  /** Notes that the call `id` started at `at` (now unless told). */
  note(id: string, at = Date.now()): void {
    this.starts.set(id, at);
    this.onStart?.(id, at);
  }

  has(id: string): boolean {
    return this.starts.has(id);
  }

  get(id: string): number | undefined {
    return this.starts.get(id);
  }
}

/** Starts of Cadre's `act` tool (the `floor-approver` agent) and of the `floor-chat` agent's model calls. */
export const cadreToolStarts = new ToolStarts();
/** Starts of the floor's `floorTool` and `floorChatModel` activities. */
export const floorToolStarts = new ToolStarts();
