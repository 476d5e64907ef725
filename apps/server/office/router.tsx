/** The office's pages by path under `/office/`: links change the path without reloading the page. */
import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

export const BASE = '/office/';
export const PAGES = ['home', 'payments', 'retail', 'tills', 'developers', 'apps', 'settings'] as const;
export type Page = (typeof PAGES)[number];

export const pathOf = (page: Page): string => (page === 'home' ? BASE : `${BASE}${page}`);

function pageAt(pathname: string): Page {
  const name = pathname.startsWith(BASE) ? pathname.slice(BASE.length).replace(/\/$/, '') : '';
  return (PAGES as readonly string[]).includes(name) ? (name as Page) : 'home';
}

const listeners = new Set<() => void>();

export function navigate(page: Page): void {
  if (location.pathname !== pathOf(page)) history.pushState(null, '', pathOf(page));
  for (const listener of listeners) listener();
}

export function usePage(): Page {
  const [page, setPage] = useState(() => pageAt(location.pathname));
  useEffect(() => {
    const update = () => setPage(pageAt(location.pathname));
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return page;
}

/** A link to a page: a real `<a href>` (opens in a new tab too), followed here without a reload. */
export function PageLink({
  page,
  ...rest
}: { page: Page } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(page);
  };
  return <a {...rest} href={pathOf(page)} onClick={follow} />;
}
