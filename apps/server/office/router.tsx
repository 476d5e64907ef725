/**
 * The office's pages by path under `/office/`: `/office/<page>/<rest...>`, where
 * the rest is the page's own (a tab, an object's id). Links change the path
 * without reloading the page.
 */
import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

export const BASE = '/office/';
export const PAGES = [
  'home',
  'payments',
  'retail',
  'hospitality',
  'events',
  'tills',
  'developers',
  'apps',
  'settings',
] as const;
export type Page = (typeof PAGES)[number];

/** Where the office is: a page, and the page's own path below it (decoded segments). */
export interface Place {
  page: Page;
  rest: string[];
}

export const pathOf = (page: Page, rest: readonly string[] = []): string =>
  (page === 'home' ? BASE : `${BASE}${page}`) + rest.map((part) => `/${encodeURIComponent(part)}`).join('');

function placeAt(pathname: string): Place {
  const parts = pathname.startsWith(BASE)
    ? pathname.slice(BASE.length).split('/').filter(Boolean).map(decodeURIComponent)
    : [];
  const [name, ...rest] = parts;
  return name && (PAGES as readonly string[]).includes(name)
    ? { page: name as Page, rest }
    : { page: 'home', rest: [] };
}

const listeners = new Set<() => void>();

export function navigate(page: Page, rest: readonly string[] = []): void {
  const path = pathOf(page, rest);
  if (location.pathname !== path) history.pushState(null, '', path);
  for (const listener of listeners) listener();
}

export function usePlace(): Place {
  const [place, setPlace] = useState(() => placeAt(location.pathname));
  useEffect(() => {
    const update = () =>
      setPlace((old) => {
        const now = placeAt(location.pathname);
        return pathOf(now.page, now.rest) === pathOf(old.page, old.rest) ? old : now;
      });
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return place;
}

/** A link within the office: a real `<a href>` (opens in a new tab too), followed here without a reload. */
export function PageLink({
  page,
  rest = [],
  ...attributes
}: { page: Page; rest?: readonly string[] } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(page, rest);
  };
  return <a {...attributes} href={pathOf(page, rest)} onClick={follow} />;
}
