import { floorToolStarts } from './tool-starts';

/** The floor's activities: a model call that takes `latencyMs`, and a tool that notes when it started. */
export const floorActivities = {
  async floorModel(latencyMs: number): Promise<string> {
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    return 'text';
  },
  async floorTool(id: string): Promise<string> {
    floorToolStarts.note(id);
    return 'done';
  },
};

/** The floor activities' type, for the workflows' proxies. */
export type FloorActivities = typeof floorActivities;
