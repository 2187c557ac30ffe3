import type { GalleryOptionData, GalleryServerData } from '../../../preload/contract';
import { choiceAt, unsupportedReason } from './entry';
import { inputViews, packageInputs, remoteInputs } from './inputs';
import { officialStatus, type ServerResponse } from './server-json';

/** A registry entry as the gallery shows it: what it is, and every way to run it with the inputs each needs. */
export function galleryServerView(response: ServerResponse): GalleryServerData {
  const detail = response.server;
  const count = (detail.packages ?? []).length + (detail.remotes ?? []).length;
  const options: GalleryOptionData[] = [];
  for (let index = 0; index < count; index++) {
    const choice = choiceAt(detail, index);
    const reason = unsupportedReason(choice);
    if (choice.kind === 'package') {
      const { pkg } = choice;
      options.push({
        index,
        kind: 'package',
        type: pkg.registryType,
        identifier: pkg.identifier,
        ...(pkg.version ? { version: pkg.version } : {}),
        ...(pkg.runtimeHint ? { runtimeHint: pkg.runtimeHint } : {}),
        transport: pkg.transport?.type ?? 'stdio',
        ...(pkg.fileSha256 ? { fileSha256: pkg.fileSha256 } : {}),
        supported: reason === undefined,
        ...(reason ? { note: `Harbor cannot install this: it is ${reason}.` } : {}),
        inputs: inputViews(packageInputs(pkg)),
      });
    } else {
      options.push({
        index,
        kind: 'remote',
        type: choice.remote.type,
        identifier: choice.remote.url ?? '',
        transport: choice.remote.type,
        supported: reason === undefined,
        ...(reason ? { note: `Harbor cannot install this: it is ${reason}.` } : {}),
        inputs: inputViews(remoteInputs(choice.remote)),
      });
    }
  }
  const status = officialStatus(response);
  return {
    name: detail.name,
    ...(detail.title ? { title: detail.title } : {}),
    description: detail.description,
    version: detail.version,
    ...(detail.repository ? { repository: { url: detail.repository.url, ...(detail.repository.source ? { source: detail.repository.source } : {}), ...(detail.repository.subfolder ? { subfolder: detail.repository.subfolder } : {}) } } : {}),
    ...(detail.websiteUrl ? { websiteUrl: detail.websiteUrl } : {}),
    ...(status ? { status } : {}),
    options,
  };
}
