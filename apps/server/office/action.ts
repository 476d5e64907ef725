/** A person's action on a page (sign in, create, revoke): busy while it runs, its failure in words. */
import { useCallback, useState } from 'react';
import { errorText, type ErrorWords } from './errors.ts';
import { useI18n } from './i18n/index.ts';

/** `words` names the codes and fields of the page's own calls (a constant of the page's module). */
export function useAction(words?: ErrorWords) {
  const { t, language } = useI18n();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async (work: () => Promise<void>) => {
      setBusy(true);
      setError(null);
      try {
        await work();
      } catch (failure) {
        setError(errorText(t, failure, language, words));
      } finally {
        setBusy(false);
      }
    },
    [t, language, words],
  );
  return { busy, error, run };
}
