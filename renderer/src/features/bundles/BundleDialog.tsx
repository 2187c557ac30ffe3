import { useId, useState } from 'react';
import type { BundleReviewData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { visibleText } from '../../lib/visible-text';
import { Modal } from '../consent/Modal';
import { BundleSettings, type SettingValue } from './BundleSettings';
import { BundleSummary } from './BundleSummary';
import { InstallActions, InstallOutlook, ServerNameField } from './InstallFormParts';
import { SandboxView } from './InstallPlanView';
import { useAllowedEnv } from './use-allowed-env';
import { useFormValues, useInstallAction } from './use-install-form';
import { useInstallPlan } from './use-install-plan';

/** Defaults the form starts with (never for sensitive settings: the person types those). */
function initialValues(review: BundleReviewData): Record<string, SettingValue> {
  return Object.fromEntries(review.settings.flatMap((s) => (s.default !== undefined && !s.sensitive ? [[s.key, s.default]] : [])));
}

/**
 * Installing a bundle: what it is and who made it, what it declares, its signature, its settings
 * as a form, and — before anything is written — the exact command it will run and what it may do.
 * Installing adds the server; it starts after the launch consent shows that same command.
 */
export function BundleDialog({ review, onClose }: { readonly review: BundleReviewData; readonly onClose: () => void }) {
  const api = useHarbor();
  const id = useId();
  const [name, setName] = useState(review.existing?.server ?? review.suggestedName);
  const [values, set] = useFormValues<SettingValue>(() => initialValues(review));
  // Only what differs from a default is sent: the Host applies defaults itself, and keeps only the person's own choices.
  const chosen = Object.fromEntries(Object.entries(values).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(review.settings.find((s) => s.key === key)?.default)));
  const request = { id: review.id, values: chosen, ...(name.trim() ? { name: name.trim() } : {}) };
  const { plan, problem, checking } = useInstallPlan(() => api.bundles.install({ ...request, dryRun: true }), JSON.stringify(request));

  const cancel = () => {
    void api.bundles.discard({ id: review.id });
    onClose();
  };
  const allowance = useAllowedEnv(plan);
  const { busy, failure, install } = useInstallAction(() => api.bundles.install({ ...request, ...(allowance.allowEnv.length ? { allowEnv: allowance.allowEnv } : {}) }), onClose);

  return (
    <Modal labelledBy={`${id}-title`} onCancel={cancel} className="bundle-dialog">
      <header className="modal__header">
        <h2 id={`${id}-title`} className="modal__title">
          {review.existing ? 'Update' : 'Install'} {visibleText(review.displayName ?? review.name)} {visibleText(review.version)}
        </h2>
        <button type="button" className="modal__close" aria-label="Close (do not install)" onClick={cancel}>
          ×
        </button>
      </header>
      <div className="modal__body">
        {review.existing ? (
          <p className="notice notice--info">
            Version {visibleText(review.existing.version)} is installed as “{visibleText(review.existing.server)}”: installing updates it and keeps its settings.
          </p>
        ) : null}
        <BundleSummary review={review} />
        <ServerNameField idPrefix={id} value={name} onChange={setName} />
        <BundleSettings settings={review.settings} values={values} onChange={set} idPrefix={id} />
        <InstallOutlook plan={plan} problem={problem} failure={failure} beforePlan={<SandboxView sandbox={review.sandbox} />} allowance={allowance} />
      </div>
      <InstallActions label={review.existing ? 'Update' : 'Install'} busy={busy} ready={!checking && plan !== undefined && allowance.allAllowed} onCancel={cancel} onInstall={() => void install()} />
    </Modal>
  );
}
