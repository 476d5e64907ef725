/**
 * A signed-in cashier with no open shift counts the float into the drawer
 * first. A scan here adds the item to the sale to come, never to the float.
 */
import { useState, type FormEvent } from 'react';
import type { PullDocument } from '@tz/core';
import type { Cashier } from '../../data/api.ts';
import { parseAmount, useI18n } from '../../i18n/index.tsx';
import { Message } from '../components/Dialog.tsx';
import { AmountInput } from '../components/inputs.tsx';
import { useScanner } from '../keyboard/use-scanner.ts';
import { useNotify } from '../notices.tsx';
import { refusalText } from '../refusal.ts';
import { useObservable, useStore } from '../store.tsx';
import { codeText } from '../../i18n/code-words.ts';

/** `note`: why a shift is asked for here (the box office takes money). */
export function OpenShiftScreen({ cashier, note }: { cashier: Cashier; note?: string }) {
  const store = useStore();
  const { t, language } = useI18n();
  const shop = useObservable<PullDocument<'stores'> | null>(store.store$, null);
  const currency = shop?.currency ?? 'TZS';
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const amount = parseAmount(text, currency);
  const notify = useNotify();

  useScanner(
    (code) =>
      void store.addBarcode(code).then(
        (scan) =>
          scan.kind === 'not_found'
            ? notify(t('notFoundBarcode', { code }), 'error')
            : scan.kind === 'choose_variant'
              ? notify(codeText(language, 'choose_variant'), 'error')
              : scan.kind === 'weigh'
                ? notify(t('weighOnSaleScreen', { name: scan.item.name }), 'error')
                : notify(t('addedItem', { name: scan.item.name })),
        (failure: unknown) => notify(refusalText(language, failure), 'error'),
      ),
    { known: (code) => store.hasBarcode(code) },
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (amount === null) return;
    setError(null);
    store.openShift(amount).catch((failure: unknown) => setError(refusalText(language, failure)));
  };
  return (
    <section className="centered-card" data-testid="open-shift-screen">
      <h1>{t('shiftOpenTitle')}</h1>
      <p className="lead">{cashier.name}</p>
      {note && <Message kind="info" text={note} />}
      <form onSubmit={submit} className="stack">
        <label>
          {t('openingFloat')}
          <AmountInput value={text} onChange={setText} currency={currency} autoFocus className="big-input" />
        </label>
        <button type="submit" className="primary big" disabled={amount === null}>
          {t('openShift')}
        </button>
        <Message text={error} />
      </form>
    </section>
  );
}
