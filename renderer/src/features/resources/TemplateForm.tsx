import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { CompletingInput } from '../catalog/CompletingInput';
import { expandTemplate, templateVariables } from './uri-template';

interface Props {
  readonly server: string;
  readonly template: { readonly uriTemplate: string; readonly name: string; readonly title?: string; readonly description?: string };
  readonly onRead: (uri: string) => void;
  readonly onClose: () => void;
}

/** Fills a resource template's variables (with the server's suggestions) and reads the resulting URI. */
export function TemplateForm({ server, template, onRead, onClose }: Props) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const variables = templateVariables(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  const [tried, setTried] = useState(false);
  useEffect(() => heading.current?.focus(), []);
  const missing = variables.filter((v) => !values[v]);
  const uri = expandTemplate(template.uriTemplate, values);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (missing.length === 0) onRead(uri);
  };

  return (
    <section className="panel detail" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {template.title ?? template.name}
      </h2>
      <p className="muted">
        <code>{template.uriTemplate}</code> on {server}
      </p>
      {template.description ? <p className="detail__desc">{template.description}</p> : null}
      <form noValidate onSubmit={submit}>
        {variables.map((name) => (
          <CompletingInput
            key={name}
            server={server}
            completionRef={{ type: 'ref/resource', uri: template.uriTemplate }}
            name={name}
            label={name}
            required
            value={values[name] ?? ''}
            context={values}
            {...(tried && !values[name] ? { error: 'Required.' } : {})}
            onChange={(value) => setValues((v) => ({ ...v, [name]: value }))}
          />
        ))}
        <p className="field__hint">
          Reads <code>{uri}</code>
        </p>
        <div className="actions">
          <button type="submit" className="button button--primary">
            Read
          </button>
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </div>
      </form>
    </section>
  );
}
