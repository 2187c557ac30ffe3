import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { SchemaFields, useSchemaForm } from '../../ui/schema-form';
import { ToolResultBody } from '../catalog/ContentView';
import { AppFrame } from '../apps/AppFrame';
import { useToolApp } from '../apps/use-tool-app';
import { StopButton, useStoppable } from '../catalog/stoppable';
import { approvedSince } from '../consent/consent-clock';
import type { ToolItem } from './tool-item';

type Outcome = { readonly result: Record<string, unknown>; readonly ms: number; readonly approved: boolean; readonly input: Record<string, unknown>; readonly run: number } | { readonly error: HarborErrorData };

/**
 * Runs one tool by hand, with arguments from a form built from its inputSchema. The call goes
 * through the same consent gate as the model's (the approval dialog appears app-wide), a
 * server's questions during the call come up as the elicitation dialog, and Stop cancels it.
 */
export function RunTool({ server, tool, onClose }: { readonly server: string; readonly tool: ToolItem; readonly onClose: () => void }) {
  const api = useHarbor();
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const form = useSchemaForm(tool.inputSchema);
  const stoppable = useStoppable();
  const running = stoppable.running;
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const runs = useRef(0);
  // A tool with an app shows each run's result in a fresh instance of it.
  const app = useToolApp(server, tool.name);
  useEffect(() => heading.current?.focus(), []);

  const run = async (event: FormEvent) => {
    event.preventDefault();
    const checked = form.submit();
    if (!checked.ok) return;
    setOutcome(undefined);
    const started = performance.now();
    const result = await stoppable.run((requestId) => api.tools.call({ server, tool: tool.name, arguments: checked.value, requestId }));
    runs.current += 1;
    // The time the tool took, from the person's approval (if asked) to the result.
    const { from, approved } = approvedSince(started);
    setOutcome(
      result.ok
        ? { result: result.value, ms: Math.round(performance.now() - from), approved, input: checked.value, run: runs.current }
        : { error: asErrorData(result.error) },
    );
  };

  return (
    <section className="panel detail" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
        Run {tool.name}
        {tool.title && tool.title !== tool.name ? <span className="item-row__title">{tool.title}</span> : null}
      </h2>
      <p className="muted">on {server}</p>
      {tool.description ? <p className="detail__desc">{tool.description}</p> : null}
      <form noValidate onSubmit={(e) => void run(e)}>
        <SchemaFields form={form} disabled={running} emptyText="This tool takes no arguments." />
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={running}>
            {running ? 'Running…' : 'Run'}
          </button>
          <StopButton stoppable={stoppable} />
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </div>
        {running ? (
          <p className="muted" role="status">
            Waiting for {server}. If Harbor asks for your approval, answer in the dialog.
          </p>
        ) : null}
      </form>
      {app && outcome && 'result' in outcome ? (
        <AppFrame key={outcome.run} server={server} tool={tool.name} input={outcome.input} result={outcome.result as never} />
      ) : null}
      {outcome ? <Result outcome={outcome} /> : null}
    </section>
  );
}

function Result({ outcome }: { readonly outcome: Outcome }) {
  if ('error' in outcome) {
    const { code } = outcome.error;
    return (
      <div className="detail__result">
        <h3>{code === 'CONSENT_DENIED' ? 'Not run' : code === 'CANCELLED' ? 'Stopped' : 'Failed'}</h3>
        <ErrorMessage error={outcome.error} />
      </div>
    );
  }
  const { result, ms, approved } = outcome;
  return (
    <div className="detail__result" role="region" aria-label="Result">
      <h3>
        {result.isError === true ? 'The tool reported an error' : 'Result'} <span className="muted">({ms} ms{approved ? ' after your approval' : ''})</span>
      </h3>
      <ToolResultBody result={result} />
    </div>
  );
}
