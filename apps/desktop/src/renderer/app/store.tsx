/** The page's one `TillStore`, and a hook that follows one of its observables. */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { Observable } from 'rxjs';
import type { TillStore } from '../data/api.ts';

const StoreContext = createContext<TillStore | null>(null);

export function StoreProvider({ store, children }: { store: TillStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

export function useStore(): TillStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStore outside StoreProvider');
  return store;
}

/** The observable's latest value (the store's observables emit their current value at once). */
export function useObservable<T>(source: Observable<T>, initial: T): T {
  const [value, setValue] = useState<T>(initial);
  useEffect(() => {
    const subscription = source.subscribe((next) => setValue(() => next));
    return () => subscription.unsubscribe();
  }, [source]);
  return value;
}
