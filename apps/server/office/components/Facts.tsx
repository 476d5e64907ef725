/** An object's facts as a list of terms and values (a card's store, status, times); a fact without a value is left out. */
import type { ReactNode } from 'react';

export type Fact = readonly [
  label: string,
  value: ReactNode,
  options?: { testId?: string; className?: string },
];

export function Facts({ facts }: { facts: ReadonlyArray<Fact | false | null> }) {
  return (
    <dl className="facts">
      {facts.map((fact) =>
        fact && fact[1] !== null ? (
          <div key={fact[0]}>
            <dt>{fact[0]}</dt>
            <dd data-testid={fact[2]?.testId} className={fact[2]?.className}>
              {fact[1]}
            </dd>
          </div>
        ) : null,
      )}
    </dl>
  );
}
