/**
 * The office's language: this browser's choice once it has made one (the
 * language switch); until then, for a signed-in business, the account's
 * default language (Settings), and Swahili before anyone signs in.
 */
import { useRef, type ReactNode } from 'react';
import { I18nProvider, LANGUAGE_KEY } from './i18n/index.ts';
import { useSession } from './session.tsx';
import type { Language } from './shared.ts';

function chosenOnThisBrowser(): boolean {
  try {
    const saved = localStorage.getItem(LANGUAGE_KEY);
    return saved === 'sw' || saved === 'en';
  } catch {
    return false;
  }
}

export function OfficeLanguage({ children }: { children: ReactNode }) {
  const { state } = useSession();
  const account = useRef<Language | null>(null);
  // Follows the account's language while this browser has chosen none; a choice made later stays
  // with the provider (which keeps it), so choosing never starts the pages again.
  if (state.kind === 'signed-in' && !chosenOnThisBrowser())
    account.current = state.session.merchant.default_language;
  return (
    <I18nProvider
      key={account.current ?? 'browser'}
      {...(account.current ? { initial: account.current } : {})}
    >
      {children}
    </I18nProvider>
  );
}
