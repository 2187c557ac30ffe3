import { useCallback } from 'react';
import { useHarbor } from '../../app/services';
import { useResult } from '../../lib/use-result';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { AboutPanel } from './AboutPanel';
import { ChatPanel } from './ChatPanel';
import { ConfigProblems } from './ConfigProblems';
import { ConsentPanel } from './ConsentPanel';
import { GalleryRegistriesPanel } from './GalleryRegistriesPanel';
import { ModelPanel } from './ModelPanel';
import { SettingsNav, SettingsSection } from './SettingsSections';
import { ThemePanel } from './ThemePanel';
import { TimeoutsPanel } from './TimeoutsPanel';
import { ToolsetsPanel } from './ToolsetsPanel';
import { SandboxPanel } from '../sandbox/SandboxPanel';
import { UpdatesPanel } from '../updates/UpdatesPanel';
import './settings.css';

export function SettingsPage() {
  const api = useHarbor();
  const loadInfo = useCallback(() => api.app.info({}), [api]);
  const [info, reloadInfo] = useResult(loadInfo);
  const loadSettings = useCallback(() => api.settings.get({}), [api]);
  const [settings, reloadSettings] = useResult(loadSettings);
  return (
    <>
      <PageHeader title="Settings">The model Harbor chats with, what it may do without asking, and how it looks.</PageHeader>
      <div className="settings-layout">
        <SettingsNav ready={settings.status !== 'loading' && info.status !== 'loading'} />
        <div className="settings-layout__content">
          {settings.status === 'loading' ? <Loading label="Loading settings…" /> : null}
          {settings.status === 'error' ? <ErrorMessage error={settings.error} onRetry={reloadSettings} /> : null}
          {settings.status === 'ready' ? (
            <>
              <SettingsSection id="model">
                <ModelPanel settings={settings.value} onSaved={reloadSettings} />
              </SettingsSection>
              <SettingsSection id="chat">
                <ChatPanel settings={settings.value} onSaved={reloadSettings} />
              </SettingsSection>
              <SettingsSection id="toolsets">
                <ToolsetsPanel settings={settings.value} onSaved={reloadSettings} />
              </SettingsSection>
            </>
          ) : null}
          <SettingsSection id="approvals">
            <ConsentPanel />
          </SettingsSection>
          <SettingsSection id="timeouts">
            <TimeoutsPanel defaultMs={settings.status === 'ready' ? settings.value.defaults.requestTimeoutMs : 60_000} />
          </SettingsSection>
          <SettingsSection id="sandbox">
            <SandboxPanel />
          </SettingsSection>
          <SettingsSection id="gallery">
            <GalleryRegistriesPanel />
          </SettingsSection>
          <SettingsSection id="appearance">
            <ThemePanel />
          </SettingsSection>
          <SettingsSection id="updates">
            <UpdatesPanel />
          </SettingsSection>
          <SettingsSection id="about">
            {info.status === 'loading' ? <Loading label="Loading…" /> : null}
            {info.status === 'error' ? <ErrorMessage error={info.error} onRetry={reloadInfo} /> : null}
            {info.status === 'ready' ? (
              <>
                <AboutPanel info={info.value} />
                <ConfigProblems problems={info.value.configProblems} configPath={info.value.configPath} />
              </>
            ) : null}
          </SettingsSection>
        </div>
      </div>
    </>
  );
}
