import { afterAll, beforeAll } from 'vitest';
import { CodeSandbox } from '../../main/host/code-mode/sandbox';

/**
 * One code sandbox (a real worker thread, real QuickJS) for a test file: made before its tests,
 * disposed after them. Returns how to reach it from a test.
 */
export function codeSandboxForFile(): () => CodeSandbox {
  let sandbox: CodeSandbox | undefined;
  beforeAll(() => {
    sandbox = new CodeSandbox();
  });
  afterAll(async () => {
    await sandbox?.dispose();
  });
  return () => {
    if (!sandbox) throw new Error('the code sandbox is made before the first test of the file');
    return sandbox;
  };
}
