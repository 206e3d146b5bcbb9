/** When each floor tool call started, by id (the approval measures read it). */
export const floorToolStarts = new Map<string, number>();

/** The floor's activities: a model call that takes `latencyMs`, and a tool that notes when it started. */
export const floorActivities = {
  async floorModel(latencyMs: number): Promise<string> {
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    return 'text';
  },
  async floorTool(id: string): Promise<string> {
    floorToolStarts.set(id, Date.now());
    return 'done';
  },
};

/** The floor activities' type, for the workflows' proxies. */
export type FloorActivities = typeof floorActivities;
