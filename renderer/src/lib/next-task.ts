/** Resolves in a later task of the event loop, after what the current task still has to do. */
export const nextTask = (): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, 0));
