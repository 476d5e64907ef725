import { APP_SLUGS, APPS, AppError, isAppSlug, type AppSlug } from '@tz/core';
import type { Queryable } from '../db/database.ts';
import type { ListSource } from '../db/list-page.ts';
import type { Tenant } from '../actor.ts';
import { unixOrNull } from '../infra/time.ts';

type AfterCommit = (task: () => Promise<void>) => void;

interface AppRow {
  slug: AppSlug;
  installed: boolean;
  updated_at: Date;
}

export const appObject = (slug: AppSlug, row: AppRow | undefined, livemode: boolean) => ({
  id: slug,
  object: 'app' as const,
  slug,
  name: APPS[slug].name,
  description: APPS[slug].description,
  // No row: never removed, so installed since sign-up.
  installed: row?.installed ?? true,
  changed_at: unixOrNull(row?.updated_at ?? null),
  livemode,
});

export type AppObject = ReturnType<typeof appObject>;

/** A row of `listSource`: an app of the catalogue and its installation, null when never changed. */
export interface AppListRow {
  id: AppSlug;
  installed: boolean | null;
  updated_at: Date | null;
}

export const appListObject = (row: AppListRow, livemode: boolean): AppObject =>
  appObject(
    row.id,
    row.installed === null || row.updated_at === null
      ? undefined
      : { slug: row.id, installed: row.installed, updated_at: row.updated_at },
    livemode,
  );

const tenantKey = (tenant: Tenant): string => `${tenant.merchantId}:${tenant.livemode ? 'live' : 'test'}`;

/**
 * Which apps a merchant has installed, per mode. The check runs on every request
 * of an app's routes, so a process keeps each merchant's removed apps for
 * `cacheSeconds`: a change clears this process's copy once committed, and other
 * processes notice within `cacheSeconds` (like a revoked key).
 */
export class AppInstallations {
  private readonly removedCache = new Map<string, { removed: ReadonlySet<AppSlug>; until: number }>();
  /** Counts changes: a lookup that started before a change committed is not cached. */
  private changes = 0;

  constructor(private readonly cacheSeconds: number) {}

  /**
   * The apps as a list source: the catalogue's order (`APP_SLUGS`) as `seq`,
   * counted down so the list helper's newest-first order reads it forwards,
   * each with its installation row, if any, in the tenant's mode.
   */
  listSource(tenant: Tenant): ListSource {
    return {
      table: `(SELECT a.slug AS id, -a.ord AS seq, m.installed, m.updated_at
        FROM unnest($3::text[]) WITH ORDINALITY AS a(slug, ord)
        LEFT JOIN merchant_apps m ON m.merchant_id = $1 AND m.livemode = $2 AND m.slug = a.slug) AS apps`,
      where: 'TRUE',
      params: [tenant.merchantId, tenant.livemode, APP_SLUGS],
    };
  }

  install(db: Queryable, tenant: Tenant, slug: string, afterCommit: AfterCommit): Promise<AppObject> {
    return this.set(db, tenant, slug, true, afterCommit);
  }

  /** Removes an app: its routes answer 403 `app_not_installed`; its data stays for reinstalling. */
  remove(db: Queryable, tenant: Tenant, slug: string, afterCommit: AfterCommit): Promise<AppObject> {
    return this.set(db, tenant, slug, false, afterCommit);
  }

  /** Throws 403 `app_not_installed` when the merchant removed `slug` in this mode. */
  async assertInstalled(db: Queryable, tenant: Tenant, slug: AppSlug): Promise<void> {
    const removed = await this.removed(db, tenant);
    if (removed.has(slug)) {
      throw new AppError(
        'app_not_installed',
        `The ${APPS[slug].name} app is not installed; install it with POST /v1/apps/${slug}`,
        { details: { app: `${slug} is removed` } },
      );
    }
  }

  private async set(
    db: Queryable,
    tenant: Tenant,
    slug: string,
    installed: boolean,
    afterCommit: AfterCommit,
  ): Promise<AppObject> {
    if (!isAppSlug(slug)) {
      throw new AppError('resource_missing', `No such app: '${slug}'`, {
        details: { slug: `must be one of ${APP_SLUGS.join(', ')}` },
      });
    }
    const result = await db.query<AppRow>(
      `INSERT INTO merchant_apps (merchant_id, livemode, slug, installed) VALUES ($1, $2, $3, $4)
       ON CONFLICT (merchant_id, livemode, slug) DO UPDATE SET installed = EXCLUDED.installed,
         updated_at = CASE WHEN merchant_apps.installed = EXCLUDED.installed THEN merchant_apps.updated_at ELSE now() END
       RETURNING slug, installed, updated_at`,
      [tenant.merchantId, tenant.livemode, slug, installed],
    );
    afterCommit(() => {
      this.changes += 1;
      this.removedCache.delete(tenantKey(tenant));
      return Promise.resolve();
    });
    return appObject(slug, result.rows[0], tenant.livemode);
  }

  private async rows(db: Queryable, tenant: Tenant): Promise<AppRow[]> {
    const result = await db.query<AppRow>(
      `SELECT slug, installed, updated_at FROM merchant_apps WHERE merchant_id = $1 AND livemode = $2`,
      [tenant.merchantId, tenant.livemode],
    );
    return result.rows;
  }

  private async removed(db: Queryable, tenant: Tenant): Promise<ReadonlySet<AppSlug>> {
    const key = tenantKey(tenant);
    const cached = this.removedCache.get(key);
    if (cached && cached.until > Date.now()) return cached.removed;
    const changes = this.changes;
    const removed = new Set((await this.rows(db, tenant)).filter((r) => !r.installed).map((r) => r.slug));
    if (this.cacheSeconds > 0 && changes === this.changes) {
      if (this.removedCache.size >= 10_000) this.removedCache.clear();
      this.removedCache.set(key, { removed, until: Date.now() + this.cacheSeconds * 1000 });
    }
    return removed;
  }
}
