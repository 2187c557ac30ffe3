import { useId, useState } from 'react';
import type { GalleryOptionData, GalleryServerData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { visibleText } from '../../lib/visible-text';
import { InstallActions, InstallOutlook, ServerNameField } from '../bundles/InstallFormParts';
import { useAllowedEnv } from '../bundles/use-allowed-env';
import { useFormValues, useInstallAction } from '../bundles/use-install-form';
import { useInstallPlan } from '../bundles/use-install-plan';
import { Modal } from '../consent/Modal';
import { GalleryInputs, type InputValue } from './GalleryInputs';
import { suggestedName } from './names';

interface Props {
  readonly registry: string;
  readonly server: GalleryServerData;
  readonly option: GalleryOptionData;
  readonly onClose: (installed?: string) => void;
}

/**
 * Installing one way of running a gallery server: its inputs as a form, then — before anything is
 * written — the exact command line (or URL), what goes to the keychain and the sandbox.
 */
export function GalleryInstallDialog({ registry, server, option, onClose }: Props) {
  const api = useHarbor();
  const id = useId();
  const [name, setName] = useState(() => suggestedName(server.name));
  const [values, set] = useFormValues<InputValue>(() => ({}));
  const request = { registry, server: server.name, version: server.version, option: option.index, values, ...(name.trim() ? { name: name.trim() } : {}) };
  const { plan, problem, checking } = useInstallPlan(() => api.gallery.install({ ...request, dryRun: true }), JSON.stringify(request));

  const allowance = useAllowedEnv(plan);
  const { busy, failure, install } = useInstallAction(() => api.gallery.install({ ...request, ...(allowance.allowEnv.length ? { allowEnv: allowance.allowEnv } : {}) }), onClose);

  return (
    <Modal labelledBy={`${id}-title`} onCancel={() => onClose()} className="bundle-dialog">
      <header className="modal__header">
        <h2 id={`${id}-title`} className="modal__title">
          Install {visibleText(server.title ?? server.name)} {visibleText(server.version)}
        </h2>
        <button type="button" className="modal__close" aria-label="Close (do not install)" onClick={() => onClose()}>
          ×
        </button>
      </header>
      <div className="modal__body">
        <p className="plain-text">{visibleText(server.description, { multiline: true })}</p>
        <p className="muted">
          From <code>{visibleText(registry)}</code> as {option.kind === 'remote' ? 'a remote server' : `the ${visibleText(option.type)} package`} <code>{visibleText(option.identifier)}</code>
        </p>
        <ServerNameField idPrefix={id} value={name} onChange={setName} />
        <GalleryInputs inputs={option.inputs} values={values} onChange={set} idPrefix={id} />
        <InstallOutlook plan={plan} problem={problem} failure={failure} allowance={allowance} />
      </div>
      <InstallActions label="Install" busy={busy} ready={!checking && plan !== undefined && allowance.allAllowed} onCancel={() => onClose()} onInstall={() => void install()} />
    </Modal>
  );
}
