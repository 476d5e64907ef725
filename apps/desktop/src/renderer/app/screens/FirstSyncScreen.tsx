/**
 * A till just paired has no cashiers until its first sync brings them: it
 * shows that sync's progress, and the PIN pad once the cashiers are there.
 */
import type { ReactNode } from 'react';
import type { FirstSync } from '../../data/api.ts';
import { useI18n } from '../../i18n/index.tsx';
import { useObservable, useStore } from '../store.tsx';

export function FirstSyncGate({ children }: { children: ReactNode }) {
  const store = useStore();
  // Until storage has answered, the sign-in screen as before: a till with cashiers never sees this.
  const progress = useObservable<FirstSync | null>(store.firstSync$, null);
  if (progress === null || progress.cashiers > 0) return children;
  return <FirstSyncScreen progress={progress} />;
}

function FirstSyncScreen({ progress }: { progress: FirstSync }) {
  const { t } = useI18n();
  const steps: Array<[string, boolean]> = [
    [t('firstSyncStore'), progress.store],
    [t('firstSyncCashiers'), progress.cashiers > 0],
    [t('firstSyncCatalogue'), progress.catalogue],
  ];
  return (
    <section className="centered-card" data-testid="first-sync-screen" aria-busy="true">
      <h1>{t('firstSyncTitle')}</h1>
      <p className="lead">{t('firstSyncLead')}</p>
      <ul className="first-sync" role="status">
        {steps.map(([label, arrived]) => (
          <li key={label} className={arrived ? 'step-arrived' : 'step-waiting'}>
            <span>{label}</span>
            <strong>{arrived ? `✓ ${t('firstSyncArrived')}` : t('firstSyncWaiting')}</strong>
          </li>
        ))}
      </ul>
    </section>
  );
}
