/**
 * Which apps are installed in this mode, read once for the frame's navigation
 * (a vertical's section shows only while its app is installed) and read again
 * when the Apps page installs or removes one.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { AppSlug } from '@tz/core';
import { allPages } from '../../api.ts';
import { useLoad } from '../../load.ts';

interface InstalledApps {
  /** null until read (or when the read failed: the sections stay hidden). */
  installed: ReadonlySet<AppSlug> | null;
  reload: () => void;
}

const InstalledContext = createContext<InstalledApps>({ installed: null, reload: () => undefined });

export function InstalledAppsProvider({ mode, children }: { mode: string; children: ReactNode }) {
  const [loaded, reload] = useLoad(
    () => allPages<{ id: string; slug: AppSlug; installed: boolean }>('/v1/apps'),
    `apps ${mode}`,
  );
  const installed =
    loaded.kind === 'done'
      ? new Set(loaded.value.filter((app) => app.installed).map((app) => app.slug))
      : null;
  return <InstalledContext.Provider value={{ installed, reload }}>{children}</InstalledContext.Provider>;
}

export const useInstalledApps = (): InstalledApps => useContext(InstalledContext);
