// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  JsonDraft,
  SchemaFields,
  defaultValues,
  parseFormSchema,
  sensitiveFields,
  submission,
  useSchemaForm,
  validate,
} from '../../../renderer/src/ui/schema-form';

afterEach(cleanup);

const person = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 5 },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    born: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    ratio: { type: 'number', exclusiveMinimum: 0 },
    subscribe: { type: 'boolean', default: true },
    size: { type: 'string', enum: ['s', 'm', 'l'], default: 'm' },
    colour: { type: 'string', oneOf: [{ const: '#f00', title: 'Red' }, { const: '#00f', title: 'Blue' }] },
    tags: { type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
    extra: { type: 'object' },
  },
  required: ['name', 'age', 'tags'],
};

describe('validate (pure)', () => {
  it('accepts a complete, correct value', () => {
    expect(
      validate(person, {
        name: 'Ana',
        email: 'ana@example.com',
        site: 'https://example.com/x',
        born: '2000-02-29',
        at: '2026-07-28T14:30:00+02:00',
        age: 30,
        ratio: 0.5,
        subscribe: false,
        size: 'l',
        colour: '#00f',
        tags: ['a', 'c'],
        extra: { any: 1 },
      }),
    ).toEqual({});
  });

  it('reports required fields, and only those, when nothing is filled', () => {
    expect(validate(person, {})).toEqual({
      name: 'Required.',
      age: 'Required.',
      tags: 'Required: pick at least one option.',
    });
  });

  it('checks string lengths in characters a person counts', () => {
    expect(validate(person, { name: 'A', age: 1, tags: ['a'] }).name).toBe('At least 2 characters (now 1).');
    expect(validate(person, { name: 'Abcdef', age: 1, tags: ['a'] }).name).toBe('At most 5 characters (now 6).');
    // Five emoji are five characters, not ten UTF-16 units.
    expect(validate(person, { name: '😀😀😀😀😀', age: 1, tags: ['a'] }).name).toBeUndefined();
  });

  it('checks each format', () => {
    const base = { name: 'Ana', age: 1, tags: ['a'] };
    expect(validate(person, { ...base, email: 'ana@' }).email).toMatch(/email address/);
    expect(validate(person, { ...base, site: 'example.com' }).site).toMatch(/full address/);
    expect(validate(person, { ...base, born: '2001-02-29' }).born).toMatch(/YYYY-MM-DD/);
    expect(validate(person, { ...base, born: '28/07/2026' }).born).toMatch(/YYYY-MM-DD/);
    expect(validate(person, { ...base, at: '2026-07-28T14:30' }).at).toMatch(/time zone/);
    expect(validate(person, { ...base, at: '2026-07-28T25:00:00Z' }).at).toMatch(/time zone/);
    expect(validate(person, { ...base, at: '2026-07-28T14:30:00.123Z' }).at).toBeUndefined();
  });

  it('checks numbers: type, whole numbers, bounds', () => {
    const base = { name: 'Ana', tags: ['a'] };
    expect(validate(person, { ...base, age: 'abc' }).age).toBe('Must be a whole number.');
    expect(validate(person, { ...base, age: 1.5 }).age).toBe('Must be a whole number.');
    expect(validate(person, { ...base, age: -1 }).age).toBe('Must be at least 0.');
    expect(validate(person, { ...base, age: 151 }).age).toBe('Must be at most 150.');
    expect(validate(person, { ...base, age: 1, ratio: 0 }).ratio).toBe('Must be more than 0.');
  });

  it('checks enums, titled enums and multi-select bounds', () => {
    const base = { name: 'Ana', age: 1 };
    expect(validate(person, { ...base, tags: ['a'], size: 'xl' }).size).toBe('Pick one of the options.');
    expect(validate(person, { ...base, tags: ['a'], colour: 'Red' }).colour).toBe('Pick one of the options.');
    expect(validate(person, { ...base, tags: ['a', 'b', 'c'] }).tags).toBe('Pick at most 2.');
    expect(validate(person, { ...base, tags: ['z'] }).tags).toBe('Pick from the options.');
  });

  it('reports JSON that does not parse', () => {
    expect(validate(person, { name: 'Ana', age: 1, tags: ['a'], extra: new JsonDraft('{"a":') }).extra).toMatch(/Not valid JSON/);
  });

  it('treats a non-object schema as a form with no fields', () => {
    expect(parseFormSchema('nope').fields).toEqual([]);
    expect(validate(null, { anything: 1 })).toEqual({});
  });
});

describe('parseFormSchema, defaults, submission', () => {
  it('reads titled enums with their labels and legacy enumNames', () => {
    const schema = parseFormSchema({
      type: 'object',
      properties: {
        colour: person.properties.colour,
        legacy: { type: 'string', enum: ['x', 'y'], enumNames: ['Ex', 'Why'] },
        nullable: { type: ['string', 'null'], maxLength: 3 },
      },
    });
    const [colour, legacy, nullable] = schema.fields;
    expect(colour).toMatchObject({ kind: 'enum', options: [{ value: '#f00', label: 'Red' }, { value: '#00f', label: 'Blue' }] });
    expect(legacy).toMatchObject({ kind: 'enum', options: [{ value: 'x', label: 'Ex' }, { value: 'y', label: 'Why' }] });
    expect(nullable).toMatchObject({ kind: 'string', maxLength: 3 });
  });

  it('prefills defaults and leaves empty optional fields out of the submission', () => {
    const schema = parseFormSchema(person);
    expect(defaultValues(schema)).toEqual({ subscribe: true, size: 'm' });
    expect(submission(schema, { name: 'Ana', email: '', age: 3, tags: ['a'], size: 'm' })).toEqual({ name: 'Ana', age: 3, tags: ['a'], size: 'm' });
  });

  it('sends a required boolean left untouched as false', () => {
    const schema = parseFormSchema({ type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] });
    expect(submission(schema, {})).toEqual({ ok: false });
  });

  it('flags fields that look like they ask for a secret', () => {
    const schema = parseFormSchema({
      type: 'object',
      properties: { user: { type: 'string' }, password: { type: 'string' }, key: { type: 'string', title: 'API key' } },
    });
    expect(sensitiveFields(schema).map((f) => f.name)).toEqual(['password', 'key']);
  });
});

/** A real form around SchemaFields, as a dialog would use it. */
function Harness({ schema, onSubmit }: { schema: unknown; onSubmit: (value: Record<string, unknown>) => void }) {
  const form = useSchemaForm(schema);
  const [errors, setErrors] = useState(0);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const result = form.submit();
        if (result.ok) onSubmit(result.value);
        else setErrors(Object.keys(result.errors).length);
      }}
    >
      <SchemaFields form={form} />
      <button type="submit">Send</button>
      <output>{errors} problems</output>
    </form>
  );
}

describe('SchemaFields', () => {
  it('renders labelled inputs with defaults, shows errors inline, and submits a typed value', async () => {
    const sent: Array<Record<string, unknown>> = [];
    render(<Harness schema={person} onSubmit={(v) => sent.push(v)} />);

    expect((screen.getByRole('checkbox', { name: 'subscribe' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: 'm' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('radio', { name: 'Red' })).toBeTruthy();

    // Submitting empty shows every required error and sends nothing.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    expect(sent).toEqual([]);
    expect(screen.getByText('3 problems')).toBeTruthy();
    const name = screen.getByRole('textbox', { name: /Name/ });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    const describedBy = name.getAttribute('aria-describedby')!;
    expect(describedBy.split(' ').map((id) => document.getElementById(id)?.textContent).join(' ')).toContain('Required.');
    // Focus moved to the first bad field.
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    expect(document.activeElement).toBe(name);

    // Typing re-validates inline.
    fireEvent.change(name, { target: { value: 'A' } });
    expect(screen.getByText('At least 2 characters (now 1).')).toBeTruthy();
    fireEvent.change(name, { target: { value: 'Ana' } });
    expect(screen.queryByText(/At least 2 characters/)).toBeNull();

    const age = screen.getByRole('textbox', { name: /age/ });
    fireEvent.change(age, { target: { value: '12x' } });
    expect(screen.getByText('Must be a whole number.')).toBeTruthy();
    fireEvent.change(age, { target: { value: '42' } });

    fireEvent.click(screen.getByRole('checkbox', { name: 'c' }));
    fireEvent.change(screen.getByRole('textbox', { name: /extra/ }), { target: { value: '{"k": [1, 2]}' } });

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    expect(sent).toEqual([{ name: 'Ana', age: 42, subscribe: true, size: 'm', tags: ['c'], extra: { k: [1, 2] } }]);
  });

  it('uses a select for long enums and keeps the schema value type', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const schema = { type: 'object', properties: { level: { type: 'integer', enum: [1, 2, 3, 4, 5] } }, required: ['level'] };
    render(<Harness schema={schema} onSubmit={(v) => sent.push(v)} />);
    fireEvent.change(screen.getByRole('combobox', { name: /level/ }), { target: { value: '3' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    expect(sent).toEqual([{ level: 4 }]);
  });

  it('renders server text as text, never as HTML', () => {
    const schema = {
      type: 'object',
      properties: { x: { type: 'string', title: '<img src=x onerror="alert(1)">', description: '<script>alert(2)</script>' } },
    };
    const { container } = render(<Harness schema={schema} onSubmit={() => undefined} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(screen.getByText('<script>alert(2)</script>')).toBeTruthy();
  });

  it('says so when there is nothing to fill in', () => {
    render(<Harness schema={{ type: 'object' }} onSubmit={() => undefined} />);
    expect(screen.getByText('Nothing to fill in.')).toBeTruthy();
  });
});
