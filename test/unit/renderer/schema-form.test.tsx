// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SchemaFields, loadSchemaForm, parseFormSchema, sensitiveFields, submission, useSchemaForm } from '../../../renderer/src/ui/schema-form';
import { formJsonSchema, formUiSchema } from '../../../renderer/src/ui/schema-form/rjsf/prepare';
import { validateValues } from '../../../renderer/src/ui/schema-form/rjsf/validator';

// The form's code loads on first use; loaded once here, every form below renders at once.
beforeAll(() => loadSchemaForm());
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
  },
  required: ['name', 'age', 'tags'],
};
const validate = (values: Record<string, unknown>) => validateValues(formJsonSchema(person), values);

describe('validateValues (pure)', () => {
  it('accepts a complete, correct value', () => {
    expect(
      validate({
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
      }),
    ).toEqual({});
  });

  it('reports required fields, and only those, when nothing is filled', () => {
    expect(validate({})).toEqual({ name: 'Required.', age: 'Required.', tags: 'Required.' });
  });

  it('checks string lengths in characters a person counts', () => {
    expect(validate({ name: 'A', age: 1, tags: ['a'] }).name).toBe('At least 2 characters (now 1).');
    expect(validate({ name: 'Abcdef', age: 1, tags: ['a'] }).name).toBe('At most 5 characters (now 6).');
    // Five emoji are five characters, not ten UTF-16 units.
    expect(validate({ name: '😀😀😀😀😀', age: 1, tags: ['a'] }).name).toBeUndefined();
  });

  it('checks each format', () => {
    const base = { name: 'Ana', age: 1, tags: ['a'] };
    expect(validate({ ...base, email: 'ana@' }).email).toMatch(/email address/);
    expect(validate({ ...base, site: 'example.com' }).site).toMatch(/full address/);
    expect(validate({ ...base, born: '2001-02-29' }).born).toMatch(/YYYY-MM-DD/);
    expect(validate({ ...base, born: '28/07/2026' }).born).toMatch(/YYYY-MM-DD/);
    expect(validate({ ...base, at: '2026-07-28T14:30' }).at).toMatch(/time zone/);
    expect(validate({ ...base, at: '2026-07-28T25:00:00Z' }).at).toMatch(/time zone/);
    expect(validate({ ...base, at: '2026-07-28T14:30:00.123Z' }).at).toBeUndefined();
  });

  it('checks numbers: type, whole numbers, bounds', () => {
    const base = { name: 'Ana', tags: ['a'] };
    expect(validate({ ...base, age: 'abc' }).age).toBe('Must be a whole number.');
    expect(validate({ ...base, age: 1.5 }).age).toBe('Must be a whole number.');
    expect(validate({ ...base, age: -1 }).age).toBe('Must be at least 0.');
    expect(validate({ ...base, age: 151 }).age).toBe('Must be at most 150.');
    expect(validate({ ...base, age: 1, ratio: 0 }).ratio).toBe('Must be more than 0.');
  });

  it('checks enums, titled enums and multi-select bounds', () => {
    const base = { name: 'Ana', age: 1 };
    expect(validate({ ...base, tags: ['a'], size: 'xl' }).size).toBe('Pick one of the options.');
    expect(validate({ ...base, tags: ['a'], colour: 'Red' }).colour).toBe('Pick one of the options.');
    expect(validate({ ...base, tags: ['a', 'b', 'c'] }).tags).toBe('Pick at most 2.');
    expect(validate({ ...base, tags: [] }).tags).toBe('Required: pick at least one option.');
    expect(validate({ ...base, tags: ['z'] })['tags.0']).toBe('Pick one of the options.');
  });

  it('checks nested objects and arrays of objects at their own paths', () => {
    const schema = formJsonSchema({
      type: 'object',
      properties: {
        steps: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, weight: { type: 'number', maximum: 1 } }, required: ['id'] } },
        limits: { type: 'object', properties: { retries: { type: 'integer' } }, required: ['retries'] },
      },
    });
    expect(validateValues(schema, { steps: [{ id: 'a', weight: 2 }, {}], limits: {} })).toEqual({
      'steps.0.weight': 'Must be at most 1.',
      'steps.1.id': 'Required.',
      'limits.retries': 'Required.',
    });
  });

  it('never runs a server-supplied pattern (a hostile regex could hang the page)', () => {
    const schema = formJsonSchema({ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } });
    expect(JSON.stringify(schema)).not.toContain('pattern');
    expect(validateValues(schema, { s: `${'a'.repeat(40)}!` })).toEqual({});
  });
});

describe('widget choices and submission', () => {
  it('uses radios for up to four options and checkboxes for a list of options', () => {
    const schema = formJsonSchema(person);
    expect(formUiSchema(schema)).toMatchObject({ size: { 'ui:widget': 'radio' }, colour: { 'ui:widget': 'radio' }, tags: { 'ui:widget': 'checkboxes' } });
  });

  it('leaves empty optional fields out of the submission', () => {
    const schema = parseFormSchema(person);
    expect(submission(schema, { name: 'Ana', email: '', age: 3, tags: ['a'], size: 'm', site: undefined })).toEqual({ name: 'Ana', age: 3, tags: ['a'], size: 'm' });
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

const send = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));

describe('SchemaFields', () => {
  it('renders labelled inputs with defaults, shows errors inline, and submits a typed value', async () => {
    const sent: Array<Record<string, unknown>> = [];
    render(<Harness schema={person} onSubmit={(v) => sent.push(v)} />);

    expect((screen.getByRole('checkbox', { name: 'subscribe' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: 'm' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('radio', { name: 'Red' })).toBeTruthy();

    // Submitting empty shows every required error and sends nothing.
    await send();
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
    await act(async () => fireEvent.change(name, { target: { value: 'A' } }));
    expect(screen.getByText('At least 2 characters (now 1).')).toBeTruthy();
    await act(async () => fireEvent.change(name, { target: { value: 'Ana' } }));
    expect(screen.queryByText(/At least 2 characters/)).toBeNull();

    // Numbers are number inputs with the schema's bounds.
    const age = screen.getByRole('spinbutton', { name: /age/ }) as HTMLInputElement;
    expect([age.type, age.min, age.max, age.step]).toEqual(['number', '0', '150', '1']);
    await act(async () => fireEvent.change(age, { target: { value: '151' } }));
    expect(screen.getByText('Must be at most 150.')).toBeTruthy();
    await act(async () => fireEvent.change(age, { target: { value: '42' } }));

    await act(async () => fireEvent.click(screen.getByRole('checkbox', { name: 'c' })));
    await send();
    expect(sent).toEqual([{ name: 'Ana', age: 42, subscribe: true, size: 'm', tags: ['c'] }]);
  });

  it('uses a select for long enums and keeps the schema value type', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const schema = { type: 'object', properties: { level: { type: 'integer', enum: [1, 2, 3, 4, 5] } }, required: ['level'] };
    render(<Harness schema={schema} onSubmit={(v) => sent.push(v)} />);
    await act(async () => fireEvent.change(screen.getByRole('combobox', { name: /level/ }), { target: { value: '3' } }));
    await send();
    expect(sent).toEqual([{ level: 4 }]);
  });

  it('edits an array of objects item by item, nested objects in fieldsets, and a oneOf by its titled alternatives', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const schema = {
      type: 'object',
      properties: {
        steps: {
          type: 'array',
          title: 'Steps',
          items: { type: 'object', title: 'Step', properties: { id: { type: 'string', title: 'Id' }, weight: { type: 'number', title: 'Weight' } }, required: ['id'] },
        },
        limits: { type: 'object', title: 'Limits', properties: { retries: { type: 'integer', title: 'Retries' } } },
        target: {
          title: 'Target',
          oneOf: [
            { title: 'By URL', type: 'object', properties: { url: { type: 'string', title: 'URL' } }, required: ['url'] },
            { title: 'By path', type: 'object', properties: { path: { type: 'string', title: 'Path' } }, required: ['path'] },
          ],
        },
      },
    };
    render(<Harness schema={schema} onSubmit={(v) => sent.push(v)} />);
    const steps = screen.getByRole('group', { name: 'Steps' });
    expect(within(steps).queryByRole('textbox')).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add to Steps' })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add to Steps' })));
    const first = screen.getByRole('group', { name: 'Step 1' });
    expect(within(steps).getAllByRole('group').length).toBe(2);
    const second = screen.getByRole('group', { name: 'Step 2' });
    await act(async () => fireEvent.change(within(first).getByRole('textbox', { name: /Id/ }), { target: { value: 'one' } }));
    await act(async () => fireEvent.change(within(second).getByRole('textbox', { name: /Id/ }), { target: { value: 'two' } }));
    await act(async () => fireEvent.change(within(second).getByRole('spinbutton', { name: 'Weight' }), { target: { value: '0.5' } }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Move item 2 up' })));
    expect((within(screen.getByRole('group', { name: 'Step 1' })).getByRole('textbox', { name: /Id/ }) as HTMLInputElement).value).toBe('two');

    await act(async () => fireEvent.change(within(screen.getByRole('group', { name: 'Limits' })).getByRole('spinbutton', { name: 'Retries' }), { target: { value: '3' } }));
    const kind = within(screen.getByRole('group', { name: 'Target' })).getByRole('combobox', { name: 'Target: which kind' });
    expect(within(kind).getAllByRole('option').map((o) => o.textContent)).toEqual(['By URL', 'By path']);
    await act(async () => fireEvent.change(kind, { target: { value: '1' } }));
    await send();
    expect(screen.getByText('Required.')).toBeTruthy();
    await act(async () => fireEvent.change(screen.getByRole('textbox', { name: /Path/ }), { target: { value: '/tmp/x' } }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Remove item 2' })));
    await send();
    expect(sent).toEqual([{ steps: [{ id: 'two', weight: 0.5 }], limits: { retries: 3 }, target: { path: '/tmp/x' } }]);
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

describe('free-form values', () => {
  it('types a schema-less object as JSON, reports text that does not parse, and sends the parsed value', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const schema = { type: 'object', properties: { extra: { type: 'object' }, note: { type: ['string', 'null'] } } };
    render(<Harness schema={schema} onSubmit={(v) => sent.push(v)} />);
    expect(screen.getByRole('textbox', { name: 'note' }).tagName).toBe('INPUT');
    const extra = screen.getByRole('textbox', { name: 'extra' });
    expect(extra.tagName).toBe('TEXTAREA');
    await act(async () => fireEvent.change(extra, { target: { value: '{"k": [1,' } }));
    await send();
    expect(sent).toEqual([]);
    expect(screen.getByText('Not valid JSON yet.')).toBeTruthy();
    await act(async () => fireEvent.change(extra, { target: { value: '{"k": [1, 2]}' } }));
    await send();
    expect(sent).toEqual([{ extra: { k: [1, 2] } }]);
  });
});

describe('a tool schema as zod writes it (forms fixture)', () => {
  it('fills the discriminator of the chosen alternative and sends what the old form could only take as JSON', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const schema = {
      type: 'object',
      properties: {
        steps: { minItems: 1, type: 'array', title: 'Steps', items: { type: 'object', title: 'Step', properties: { name: { type: 'string', title: 'Name' }, minutes: { type: 'integer', minimum: 1, maximum: 120, title: 'Minutes' } }, required: ['name', 'minutes'] } },
        priority: { type: 'string', enum: ['lowest', 'low', 'normal', 'high', 'highest'], title: 'Priority' },
        target: {
          title: 'Target',
          oneOf: [
            { type: 'object', title: 'A web address', properties: { kind: { type: 'string', const: 'url' }, url: { type: 'string', title: 'URL' } }, required: ['kind', 'url'] },
            { type: 'object', title: 'A local path', properties: { kind: { type: 'string', const: 'path' }, path: { type: 'string', title: 'Path' } }, required: ['kind', 'path'] },
          ],
        },
      },
      required: ['steps', 'priority', 'target'],
    };
    render(<Harness schema={schema} onSubmit={(v) => sent.push(v)} />);
    // A required list with minItems starts with its first item.
    const step = screen.getByRole('group', { name: 'Step 1' });
    await act(async () => fireEvent.change(within(step).getByRole('textbox', { name: /Name/ }), { target: { value: 'build' } }));
    await act(async () => fireEvent.change(within(step).getByRole('spinbutton', { name: /Minutes/ }), { target: { value: '500' } }));
    await act(async () => fireEvent.change(screen.getByRole('combobox', { name: /Priority/ }), { target: { value: '3' } }));
    expect(screen.queryByRole('textbox', { name: /kind/ })).toBeNull();
    await act(async () => fireEvent.change(screen.getByRole('combobox', { name: 'Target: which kind' }), { target: { value: '1' } }));
    await act(async () => fireEvent.change(screen.getByRole('textbox', { name: /Path/ }), { target: { value: '/srv' } }));
    await send();
    expect(sent).toEqual([]);
    expect(screen.getByText('Must be at most 120.')).toBeTruthy();
    await act(async () => fireEvent.change(within(step).getByRole('spinbutton', { name: /Minutes/ }), { target: { value: '5' } }));
    expect(screen.queryByText('Must be at most 120.')).toBeNull();
    await send();
    expect(sent).toEqual([{ steps: [{ name: 'build', minutes: 5 }], priority: 'high', target: { kind: 'path', path: '/srv' } }]);
  });
});
