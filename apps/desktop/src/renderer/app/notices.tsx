/** Short messages at the bottom of the screen, clear of the search box and the total (item added, refusals), gone after a few seconds. */
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

export interface Notice {
  id: number;
  kind: 'info' | 'error';
  text: string;
}

type Notify = (text: string, kind?: Notice['kind']) => void;
const NoticeContext = createContext<Notify>(() => undefined);

export function NoticeProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const next = useRef(0);
  const notify = useCallback<Notify>((text, kind = 'info') => {
    const id = ++next.current;
    setNotices((current) => [...current.slice(-2), { id, kind, text }]);
    setTimeout(
      () => setNotices((current) => current.filter((notice) => notice.id !== id)),
      kind === 'error' ? 6000 : 2500,
    );
  }, []);
  const value = useMemo(() => notify, [notify]);
  return (
    <NoticeContext.Provider value={value}>
      {children}
      <div className="notices" aria-live="polite">
        {notices.map((notice) => (
          <p
            key={notice.id}
            className={`notice ${notice.kind}`}
            role={notice.kind === 'error' ? 'alert' : 'status'}
          >
            {notice.text}
          </p>
        ))}
      </div>
    </NoticeContext.Provider>
  );
}

export function useNotify(): Notify {
  return useContext(NoticeContext);
}
