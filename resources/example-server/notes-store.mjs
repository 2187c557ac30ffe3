// Storage for Harbor Notes: one JSON file, read fresh on every access (another process — the
// HTTP mode, a second Harbor window — may share the folder) and replaced atomically on write.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * @typedef {{ id: string, title: string, body: string, tag?: string, createdAt: string }} Note
 * @typedef {{ nextId: number, notes: Note[] }} NotesFile
 */

/** The note a fresh install starts with, so the first look at the server shows something. */
const WELCOME = {
  title: 'Welcome to Harbor',
  body:
    'This note lives in Harbor Notes, the example MCP server that ships with Harbor.\n' +
    'Ask the model to list, search, add or delete notes, or open the notes://index resource.',
  tag: 'idea',
};

export class NoteStore {
  /** @param {string} dir folder that holds notes.json (created on first write) */
  constructor(dir) {
    this.dir = dir;
    this.file = path.join(dir, 'notes.json');
  }

  /** @returns {NotesFile} */
  #load() {
    let text;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ENOENT') throw error;
      const now = new Date().toISOString();
      return { nextId: 2, notes: [{ id: '1', ...WELCOME, createdAt: now }] };
    }
    try {
      const data = JSON.parse(text);
      if (!Array.isArray(data.notes) || !Number.isSafeInteger(data.nextId)) throw new Error('unexpected shape');
      return data;
    } catch (error) {
      // Never overwrite a file we cannot read: the user may want what is in it.
      throw new Error(`The notes file ${this.file} is damaged (${/** @type {Error} */ (error).message}); fix or move it away and try again.`, { cause: error });
    }
  }

  /** Write temp + rename, so a crash mid-write never leaves a half-written notes file. */
  #save(/** @type {NotesFile} */ data) {
    mkdirSync(this.dir, { recursive: true });
    const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n', 'utf8');
      renameSync(tmp, this.file);
    } catch (error) {
      rmSync(tmp, { force: true });
      throw error;
    }
  }

  /** @returns {Note[]} */
  list() {
    return this.#load().notes;
  }

  /** @returns {Note | undefined} */
  get(/** @type {string} */ id) {
    return this.list().find((note) => note.id === id);
  }

  /** Case-insensitive match on title, body and tag. @returns {Note[]} */
  search(/** @type {string} */ query) {
    const needle = query.trim().toLowerCase();
    return this.list().filter((note) =>
      [note.title, note.body, note.tag ?? ''].some((field) => field.toLowerCase().includes(needle)),
    );
  }

  /** @param {{ title: string, body: string, tag?: string | undefined }} input @returns {Note} */
  add({ title, body, tag }) {
    const data = this.#load();
    /** @type {Note} */
    const note = { id: String(data.nextId), title, body, createdAt: new Date().toISOString() };
    if (tag) note.tag = tag;
    data.nextId += 1;
    data.notes.push(note);
    this.#save(data);
    return note;
  }

  /** @returns {Note | undefined} the deleted note, or undefined when there was none */
  delete(/** @type {string} */ id) {
    const data = this.#load();
    const note = data.notes.find((n) => n.id === id);
    if (!note) return undefined;
    data.notes = data.notes.filter((n) => n.id !== id);
    this.#save(data);
    return note;
  }
}
