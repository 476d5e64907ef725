/**
 * Apps: each vertical a card saying what it adds, installed or not in this
 * mode; installing, and removing after asking (its data is kept, its pages
 * and API answer `app_not_installed` until it is installed again).
 */
import { useState } from 'react';
import type { AppSlug } from '@tz/core';
import { api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { Actions } from '../../components/Actions.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { formatDateTime, Message } from '../../shared.ts';
import { useInstalledApps } from './installed.tsx';

interface App {
  id: AppSlug;
  slug: AppSlug;
  name: string;
  installed: boolean;
  changed_at: number | null;
}

const APP_WORDS: Record<AppSlug, [name: MessageKey, adds: MessageKey]> = {
  retail: ['appRetail', 'appRetailAdds'],
  hospitality: ['appHospitality', 'appHospitalityAdds'],
  events: ['appEvents', 'appEventsAdds'],
  memberships: ['appMemberships', 'appMembershipsAdds'],
  employees: ['appEmployees', 'appEmployeesAdds'],
  printers: ['appPrinters', 'appPrintersAdds'],
  statutory: ['appStatutory', 'appStatutoryAdds'],
};

export function Apps() {
  const { t } = useI18n();
  // Paged like every list, though the catalogue fits on one page.
  const list = useCursorList<App>('/v1/apps');
  const navigation = useInstalledApps();
  // The frame's navigation follows: a vertical's section comes and goes with its app.
  const reload = () => {
    list.reload();
    navigation.reload();
  };
  const [removing, setRemoving] = useState<App | null>(null);
  const { error, run } = useAction();
  const words = (app: App) => APP_WORDS[app.slug];
  return (
    <div className="page" data-testid="apps">
      <div className="page-head">
        <h1>{t('navApps')}</h1>
      </div>
      <p className="muted">{t('appsLead')}</p>
      <Message text={error} />
      <CursorListView list={list} empty={t('noApps')}>
        {(apps) => (
          <ul className="cards" data-testid="app-list">
            {apps.map((app) => (
              <li key={app.slug} className="card" data-testid="app" data-app={app.slug}>
                <div className="card-head">
                  <h2>{t(words(app)[0])}</h2>
                  <span
                    className={`badge ${app.installed ? 'status-installed' : ''}`}
                    data-testid="app-state"
                  >
                    {t(app.installed ? 'appInstalled' : 'appNotInstalled')}
                  </span>
                </div>
                <p>{t(words(app)[1])}</p>
                {app.changed_at !== null && (
                  <p className="muted small">
                    {t('appChanged', { time: formatDateTime(app.changed_at * 1000) })}
                  </p>
                )}
                <Actions
                  actions={[
                    app.installed
                      ? {
                          label: t('appRemove'),
                          onClick: () => setRemoving(app),
                          testId: 'remove-app',
                          className: 'ghost danger',
                        }
                      : {
                          label: t('appInstall'),
                          onClick: () =>
                            void run(async () => {
                              await api.post(`/v1/apps/${app.slug}`);
                              reload();
                            }),
                          testId: 'install-app',
                          className: 'primary',
                        },
                  ]}
                />
              </li>
            ))}
          </ul>
        )}
      </CursorListView>
      {removing && (
        <ConfirmDialog
          title={t('appRemoveTitle', { name: t(words(removing)[0]) })}
          lead={t('appRemoveLead')}
          confirm={t('appRemove')}
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await api.delete(`/v1/apps/${removing.slug}`);
            setRemoving(null);
            reload();
          }}
        />
      )}
    </div>
  );
}
