/** A page's own sections as links (`/office/<page>/<tab>`), the current one marked; they scroll sideways on a phone. */
import { useEffect, useRef } from 'react';
import { PageLink, type Page } from '../router.tsx';
import './sections.css';

export function SubNav<T extends string>({
  page,
  label,
  current,
  tabs,
}: {
  page: Page;
  /** The navigation's name for a screen reader. */
  label: string;
  current: T;
  tabs: ReadonlyArray<readonly [T, string]>;
}) {
  const nav = useRef<HTMLElement>(null);
  // On a phone the tabs scroll sideways: the current one is brought into view.
  useEffect(() => {
    nav.current
      ?.querySelector('[aria-current=page]')
      ?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [current]);
  return (
    <nav className="subnav" aria-label={label} ref={nav}>
      <ul>
        {tabs.map(([tab, words]) => (
          <li key={tab}>
            <PageLink
              page={page}
              rest={[tab]}
              aria-current={tab === current ? 'page' : undefined}
              data-testid={`tab-${tab}`}
            >
              {words}
            </PageLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The tab of the path (`place.rest[0]`), or the first when it names none. */
export function tabOf<T extends string>(tabs: readonly T[], rest: readonly string[]): T {
  return tabs.find((tab) => tab === rest[0]) ?? tabs[0]!;
}
