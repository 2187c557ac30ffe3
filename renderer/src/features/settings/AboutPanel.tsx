import type { AppInfo } from '../../../../preload/contract';
import { LogFolder } from './LogFolder';

const MODES: Record<AppInfo['mode'], string> = {
  electron: 'Desktop app',
  web: 'Browser mode (harbor web)',
  cli: 'Command line',
};

export function AboutPanel({ info }: { readonly info: AppInfo }) {
  return (
    <section className="panel" aria-labelledby="about-title">
      <h2 id="about-title">About</h2>
      <dl className="facts">
        <dt>Version</dt>
        <dd>
          {info.name} {info.version}
        </dd>
        <dt>Mode</dt>
        <dd>{MODES[info.mode]}</dd>
        <dt>Configuration file</dt>
        <dd>
          <code>{info.configPath}</code>
        </dd>
        <dt>Data folder</dt>
        <dd>
          <code>{info.dataDir}</code>
        </dd>
        <dt>Harbor’s log</dt>
        <dd>
          <LogFolder />
        </dd>
        <dt>Platform</dt>
        <dd>
          {info.platform}, Node {info.versions.node}
          {info.versions.electron ? `, Electron ${info.versions.electron}` : ''}
        </dd>
      </dl>
    </section>
  );
}
