/**
 * The desktop app's own settings (not the MCP registry): `settings.json` in userData, validated on
 * read (a hand-edited or half-written file falls back to the defaults, it never stops the app) and
 * written atomically.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../host/fs-atomic';

export const ShellSettingsSchema = z.object({
  /** Check for, and download, updates by itself (the person still chooses when to restart). */
  autoUpdate: z.boolean().default(true),
});
export type ShellSettings = z.infer<typeof ShellSettingsSchema>;

export class ShellSettingsStore {
  private current: ShellSettings;

  constructor(
    readonly path: string,
    private readonly log: (message: string, error?: unknown) => void = () => undefined,
  ) {
    this.current = this.read();
  }

  get value(): ShellSettings {
    return { ...this.current };
  }

  /** Saves the whole settings object with `patch` applied; the in-memory value changes first. */
  async update(patch: Partial<ShellSettings>): Promise<ShellSettings> {
    this.current = ShellSettingsSchema.parse({ ...this.current, ...patch });
    await writeFileAtomic(this.path, `${JSON.stringify(this.current, null, 2)}\n`);
    return this.value;
  }

  private read(): ShellSettings {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return ShellSettingsSchema.parse({}); // first launch
    }
    try {
      return ShellSettingsSchema.parse(JSON.parse(text));
    } catch (error) {
      this.log(`${this.path} is not valid settings; using the defaults until the next change rewrites it`, error);
      return ShellSettingsSchema.parse({});
    }
  }
}
