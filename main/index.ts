// Electron composition root: placeholder until the shell lands.
export {};
