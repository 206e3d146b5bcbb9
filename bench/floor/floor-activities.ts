import { floorToolStarts } from './tool-starts';

/** The floor's activities: a model call that takes `latencyMs`, a tool that notes when it started, and a chat turn's model call that does too. */
export const floorActivities = {
  async floorModel(latencyMs: number): Promise<string> {
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    return 'text';
  },
  async floorTool(id: string): Promise<string> {
    floorToolStarts.note(id);
    return 'done';
  },
  /** A chat turn's model call, which notes its start as `id` (`<session>:<turn>`). */
  async floorChatModel(id: string): Promise<string> {
    floorToolStarts.note(id);
    return 'text';
  },
};

/** The floor activities' type, for the workflows' proxies. */
export type FloorActivities = typeof floorActivities;
