import { join } from 'node:path';
import type { DataFile } from '../data-file-errors';
import { lazyDataFile } from '../lazy-data-file';
import type { DisposableStore } from '../lifecycle';
import type { LogSink } from '../log/harbor-log';
import type { DataAccess } from '../open-database';
import { SkillApprovalStore } from '../skills/approvals';
import { SkillFileCache } from '../skills/file-cache';
import type { ConsentQuestions } from '../consent/pending';
import { SkillConsent } from '../skills/skill-consent';
import { askThroughQueue } from '../skills/skill-request';
import { SkillService } from '../skills/skill-service';
import type { ServerControl } from './server-control';
import type { ServerIdentities } from './server-identities';

export interface SkillWiring {
  readonly dataDir: string;
  /** 'read-only' for a command that only reads (open-database.ts). */
  readonly access?: DataAccess;
  readonly servers: Pick<ServerControl, 'ready'>;
  readonly identities: Pick<ServerIdentities, 'of'>;
  readonly log: LogSink;
  /** The Host's consent queue where a person can answer (the app's dialog); absent in the CLI, where an unapproved load is refused (exit 4 unless --yes). */
  readonly questions?: ConsentQuestions;
}

/** The approvals' database, as the person is told about it when it cannot be used. */
export function skillApprovalsFile(dataDir: string): DataFile {
  return { path: join(dataDir, 'skill-approvals.db'), holds: 'your skill approvals', asideCost: 'Harbor then asks again before loading each skill' };
}

/** The skills service with its approvals (opened on first use, owned by `owned`) and its cache under DATA/skills/cache. */
export function openSkills(owned: DisposableStore, wiring: SkillWiring): SkillService {
  const file = skillApprovalsFile(wiring.dataDir);
  const store = owned.add(lazyDataFile(file, () => new SkillApprovalStore(file.path, wiring.access)));
  return new SkillService({
    connect: (server) => wiring.servers.ready(server),
    ref: (server) => {
      const { name, identity } = wiring.identities.of(server);
      return { name, identity };
    },
    consent: new SkillConsent(store, wiring.questions ? askThroughQueue(wiring.questions, (server) => wiring.identities.of(server).config.trusted === true) : undefined),
    cache: new SkillFileCache(join(wiring.dataDir, 'skills', 'cache')),
    approvals: () => store.list(),
    log: wiring.log,
  });
}
