// Preload placeholder until the shell lands.
export {};
