/**
 * Who is signed in, in which mode: read from `/office/session` (the cookie
 * itself is out of the page's reach). Signing in, switching mode and signing
 * out go to the server; other tabs of this browser hear of it and read the
 * session again, so no tab goes on showing the other mode.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, ApiError, whenSignedOut } from './api.ts';
import type { Language } from './shared.ts';

export type Mode = 'test' | 'live';

export interface OfficeSession {
  object: 'office_session';
  mode: Mode;
  livemode: boolean;
  expires_at: number;
  merchant: { id: string; business_name: string; email: string; default_language: Language };
}

type State =
  | { kind: 'loading' }
  | { kind: 'signed-out'; ended: boolean }
  | { kind: 'signed-in'; session: OfficeSession };

interface SessionApi {
  state: State;
  signIn: (email: string, password: string) => Promise<void>;
  switchMode: (mode: Mode) => Promise<void>;
  signOut: () => Promise<void>;
  signOutEverywhere: () => Promise<void>;
  /** Reads the session again (after the business was renamed, say); other tabs do too. */
  refresh: () => Promise<void>;
}

const SessionContext = createContext<SessionApi | null>(null);
/** The mode this browser last chose: a sign-in opens in it. */
const MODE_KEY = 'office.mode';
const CHANNEL = 'office.session';

function lastMode(): Mode {
  try {
    return localStorage.getItem(MODE_KEY) === 'live' ? 'live' : 'test';
  } catch {
    return 'test';
  }
}

function rememberMode(mode: Mode): void {
  try {
    localStorage.setItem(MODE_KEY, mode);
  } catch {
    // a private window may refuse storage
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const channel = useMemo(() => ('BroadcastChannel' in window ? new BroadcastChannel(CHANNEL) : null), []);

  const load = useCallback(async (ended = false) => {
    try {
      const session = await api.get<OfficeSession>('/office/session');
      setState({ kind: 'signed-in', session });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) setState({ kind: 'signed-out', ended });
      else throw error;
    }
  }, []);

  useEffect(() => {
    void load().catch(() => setState({ kind: 'signed-out', ended: false }));
    whenSignedOut(() => setState({ kind: 'signed-out', ended: true }));
    if (channel) channel.onmessage = () => void load(true).catch(() => undefined);
    return () => channel?.close();
  }, [channel, load]);

  const value = useMemo<SessionApi>(() => {
    const changed = (session: OfficeSession | null) => {
      setState(session ? { kind: 'signed-in', session } : { kind: 'signed-out', ended: false });
      channel?.postMessage('changed');
    };
    return {
      state,
      async signIn(email, password) {
        changed(await api.post<OfficeSession>('/office/session', { email, password, mode: lastMode() }));
      },
      async switchMode(mode) {
        const session = await api.post<OfficeSession>('/office/session/mode', { mode });
        rememberMode(mode);
        changed(session);
      },
      async signOut() {
        await api.delete('/office/session');
        changed(null);
      },
      async signOutEverywhere() {
        await api.delete('/office/sessions');
        changed(null);
      },
      async refresh() {
        changed(await api.get<OfficeSession>('/office/session'));
      },
    };
  }, [state, channel]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The signed-in session (for pages shown only when signed in). */
export function useSignedIn(): OfficeSession {
  const { state } = useSession();
  if (state.kind !== 'signed-in') throw new Error('useSignedIn while signed out');
  return state.session;
}
