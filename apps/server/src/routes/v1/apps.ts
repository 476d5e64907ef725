import { z } from 'zod';
import { APP_SLUGS } from '@tz/core';
import { listPage } from '../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { defineRoute } from '../../http/route.ts';
import { appListObject, type AppListRow } from '../../merchants/apps.ts';
import { livemode, unix } from './schemas.ts';

/** /apps: the verticals, each installed or removed, per mode. */

const tag = 'Apps';

const appSchema = z.object({
  id: z.enum(APP_SLUGS).describe('The slug'),
  object: z.literal('app'),
  slug: z.enum(APP_SLUGS),
  name: z.string(),
  description: z.string(),
  installed: z.boolean(),
  changed_at: unix.nullable().describe('When it was last installed or removed; null if never changed'),
  livemode,
});

const slugParams = z.object({ slug: z.string().min(1).max(100) });

export const appRoutes = [
  defineRoute({
    method: 'GET',
    path: '/apps',
    tag,
    summary: 'List apps',
    description:
      'Every app, installed or not, in the key’s mode, in a fixed order (retail first), paged like every list. New merchants start with all installed. A removed app’s routes answer 403 `app_not_installed`; its data is kept.',
    auth: 'secret',
    query: listQuery,
    response: listEnvelope(appSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.apps.listSource(auth), query, (row: AppListRow) =>
        appListObject(row, auth.livemode),
      ),
  }),
  defineRoute({
    method: 'POST',
    path: '/apps/{slug}',
    tag,
    summary: 'Install an app',
    description:
      'Its routes answer again, with the data it had when it was removed. Installing twice is harmless.',
    auth: 'secret',
    params: slugParams,
    response: appSchema,
    handler: ({ params, auth, db, services, afterCommit }) =>
      services.apps.install(db, auth, params.slug, afterCommit),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/apps/{slug}',
    tag,
    summary: 'Remove an app by slug',
    description:
      'Its routes then answer 403 `app_not_installed` in this mode (a till’s commands for it are refused with that code); its data is kept for reinstalling.',
    auth: 'secret',
    params: slugParams,
    response: appSchema,
    handler: ({ params, auth, db, services, afterCommit }) =>
      services.apps.remove(db, auth, params.slug, afterCommit),
  }),
];
