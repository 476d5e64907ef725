/**
 * The office's one way to show a `/v1` list: a page of `limit` rows read with
 * the API's cursors (`starting_after` back in time, `ending_before` forward),
 * so a list of 100,000 rows costs one page's read, and the pager under it.
 * A change of filters starts again at the newest page.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { api, type List } from '../api.ts';
import { useI18n } from '../i18n/index.ts';
import { useLoad, type Loaded } from '../load.ts';
import { Failed, Loading } from './Status.tsx';

type Cursor = { starting_after: string } | { ending_before: string } | null;

export interface CursorList<T> {
  loaded: Loaded<List<T>>;
  reload: () => void;
  /** Older rows: the page after the last row shown. */
  next: (() => void) | null;
  /** Newer rows: the page before the first row shown. */
  previous: (() => void) | null;
}

/** `filters` with an empty or undefined value are left out of the query. */
export function useCursorList<T extends { id: string }>(
  path: string,
  filters: Record<string, string | number | undefined> = {},
  limit = 25,
): CursorList<T> {
  const filterQuery = new URLSearchParams(
    Object.entries(filters).flatMap(([name, value]) =>
      value === undefined || value === '' ? [] : [[name, String(value)]],
    ),
  ).toString();
  const [cursor, setCursor] = useState<{ for: string; at: Cursor }>({ for: filterQuery, at: null });
  const at = cursor.for === filterQuery ? cursor.at : null;
  const query = new URLSearchParams(filterQuery);
  query.set('limit', String(limit));
  if (at) for (const [name, id] of Object.entries(at)) query.set(name, id);
  const url = `${path}?${query.toString()}`;
  const [loaded, reload] = useLoad(() => api.get<List<T>>(url), url);
  useEffect(() => {
    if (cursor.for !== filterQuery) setCursor({ for: filterQuery, at: null });
  }, [cursor.for, filterQuery]);
  const page = loaded.kind === 'done' ? loaded.value : null;
  const first = page?.data[0];
  const last = page?.data.at(-1);
  const forward = at !== null && 'ending_before' in at;
  // Reading forward, `has_more` says whether newer rows remain; reading back, older ones.
  const olderRemain = forward ? true : (page?.has_more ?? false);
  const newerRemain = at === null ? false : forward ? (page?.has_more ?? false) : true;
  return {
    loaded,
    reload,
    next: olderRemain && last ? () => setCursor({ for: filterQuery, at: { starting_after: last.id } }) : null,
    previous:
      newerRemain && first ? () => setCursor({ for: filterQuery, at: { ending_before: first.id } }) : null,
  };
}

/** The list's rows once read (`children` draws them), its loading and failure, and the pager. */
export function CursorListView<T>({
  list,
  empty,
  children,
}: {
  list: CursorList<T>;
  /** Shown when the list has no rows at all. */
  empty: string;
  children: (rows: T[]) => ReactNode;
}) {
  const { t } = useI18n();
  if (list.loaded.kind === 'loading') return <Loading />;
  if (list.loaded.kind === 'failed') return <Failed error={list.loaded.error} onRetry={list.reload} />;
  const rows = list.loaded.value.data;
  return (
    <div className="stack">
      {rows.length === 0 && !list.previous ? <p className="muted">{empty}</p> : children(rows)}
      {(list.previous || list.next) && (
        <nav className="pager" aria-label={t('pages')}>
          <button type="button" onClick={list.previous ?? undefined} disabled={!list.previous}>
            ← {t('newer')}
          </button>
          <button type="button" onClick={list.next ?? undefined} disabled={!list.next}>
            {t('older')} →
          </button>
        </nav>
      )}
    </div>
  );
}
