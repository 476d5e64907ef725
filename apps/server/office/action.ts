/** A person's action on a page (sign in, create, revoke): busy while it runs, its failure in words. */
import { useCallback, useState } from 'react';
import { errorText } from './errors.ts';
import { useI18n } from './i18n/index.ts';

export function useAction() {
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
        setError(errorText(t, failure, language));
      } finally {
        setBusy(false);
      }
    },
    [t, language],
  );
  return { busy, error, run };
}
