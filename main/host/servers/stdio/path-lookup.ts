/**
 * Whether starting a stdio server looks a program up on PATH — and so whether its launch must wait
 * for the login shell's PATH (login-shell-path.ts). A bare name (`npx`, `uvx`) is looked up; an
 * absolute path to a binary or a script with a fixed interpreter (`#!/bin/sh`) is not. `env`, and
 * a script whose `#!` line runs env (`#!/usr/bin/env node`: every npm bin), look the interpreter up.
 */
import { basename, isAbsolute } from 'node:path';

/** The first bytes of a file: enough for a `#!` line's interpreter. */
const SHEBANG_BYTES = 256;

export function needsPathLookup(command: string, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'win32' || !isAbsolute(command)) return true;
  if (basename(command) === 'env') return true;
  const head = readHead(command);
  // Unreadable: the spawn itself will say why; looking PATH up would not change that.
  if (head === undefined || !head.startsWith('#!')) return false;
  const interpreter = head.slice(2).split('\n', 1)[0]!.trim().split(/\s+/, 1)[0] ?? '';
  return !isAbsolute(interpreter) || basename(interpreter) === 'env';
}

function readHead(path: string): string | undefined {
  // Through getBuiltinModule: an ES import of node:fs evaluates its lazy exports (see cli/main.ts).
  const { openSync, readSync, closeSync } = process.getBuiltinModule('node:fs');
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(SHEBANG_BYTES);
    const read = readSync(fd, buffer, 0, SHEBANG_BYTES, 0);
    return buffer.subarray(0, read).toString('latin1');
  } catch {
    // Missing, a folder, not ours to read: the launch reports it (spawn's own error).
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
