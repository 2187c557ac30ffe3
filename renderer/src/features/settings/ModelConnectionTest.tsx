import { useState } from 'react';
import type { HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { visibleText } from '../../lib/visible-text';
import { ErrorMessage } from '../../ui/ErrorMessage';

type TestState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'testing' }
  | { readonly kind: 'ok'; readonly model: string; readonly ms: number; readonly reply: string }
  | { readonly kind: 'failed'; readonly error: HarborErrorData };

/**
 * "Test connection": one tiny real request to the saved model, so a wrong address, key or model
 * name shows here rather than in the first chat. It tests what is saved, not the unsaved form.
 */
export function ModelConnectionTest({ disabled }: { readonly disabled: boolean }) {
  const api = useHarbor();
  const [state, setState] = useState<TestState>({ kind: 'idle' });
  const test = async () => {
    setState({ kind: 'testing' });
    const result = await api.settings.testModel({});
    setState(result.ok ? { kind: 'ok', ...result.value } : { kind: 'failed', error: asErrorData(result.error) });
  };
  return (
    <div className="model-test">
      <button type="button" className="button" disabled={disabled || state.kind === 'testing'} onClick={() => void test()}>
        {state.kind === 'testing' ? 'Testing…' : 'Test connection'}
      </button>
      <div role="status" className="model-test__result">
        {state.kind === 'ok' ? (
          <p className="notice notice--ok">
            Connected: {visibleText(state.model)} answered in {state.ms} ms
            {state.reply ? <> — “{visibleText(state.reply)}”</> : ' (with no text)'}.
          </p>
        ) : null}
        {state.kind === 'testing' ? <p className="muted">Sending one short request to the saved model…</p> : null}
      </div>
      {state.kind === 'failed' ? <ErrorMessage error={state.error} /> : null}
    </div>
  );
}
