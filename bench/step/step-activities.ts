/** The bare loops' activities: a model call of `latencyMs`, and a tool that does nothing. */
export const stepActivities = {
  async stepModel(latencyMs: number): Promise<string> {
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    return 'text';
  },
  async stepTool(): Promise<string> {
    return 'done';
  },
};

/** The step activities' type, for the workflows' proxies. */
export type StepActivities = typeof stepActivities;
