/**
 * The box office (from the door: F6 or its button): tickets sold at the
 * counter. The cashier picks how many of each tier (− and +, never past what
 * is left), takes payment with the sale's own tender dialog (F10: cash,
 * mobile money when online, card), and the receipt prints each ticket with
 * its QR code; this till's door admits them at once. It takes money, so it
 * needs an open shift (App shows the float's screen first).
 */
import { useState } from 'react';
import type { BoxOfficeView, CompletedSale } from '../../../data/api.ts';
import { formatCount, formatDateTime, formatMoney, useI18n } from '../../../i18n/index.tsx';
import { Kbd } from '../../components/Dialog.tsx';
import { useShortcuts } from '../../keyboard/shortcuts.ts';
import { useObservable, useStore } from '../../store.tsx';
import { SaleDoneDialog, TenderDialog } from '../TenderDialog.tsx';

export function BoxOfficeScreen({ blocked, onBack }: { blocked: boolean; onBack: () => void }) {
  const store = useStore();
  const { t } = useI18n();
  const view = useObservable<BoxOfficeView | null>(store.boxOffice$, null);
  const [counts, setCounts] = useState<Record<string, number>>({});
  const [paying, setPaying] = useState(false);
  const [done, setDone] = useState<CompletedSale | null>(null);

  const event = view?.event ?? null;
  const tiers = view?.tiers ?? [];
  const quantity = (tier: string) => counts[tier] ?? 0;
  const lines = tiers.filter((tier) => quantity(tier.id) > 0);
  const tickets = lines.reduce((sum, tier) => sum + quantity(tier.id), 0);
  const total = lines.reduce((sum, tier) => sum + quantity(tier.id) * tier.price, 0);
  const currency = view?.currency ?? 'TZS';
  const pay = () => tickets > 0 && setPaying(true);

  useShortcuts('door', !blocked && !paying && done === null, () => ({}), {
    boxOfficePay: pay,
    boxOfficeBack: onBack,
  });

  const step = (tier: string, by: number, left: number) =>
    setCounts((all) => ({ ...all, [tier]: Math.max(0, Math.min(left, (all[tier] ?? 0) + by)) }));

  return (
    <div className="box-office" data-testid="box-office">
      <header className="door-head">
        <h2 data-testid="box-office-event">
          {event ? t('boxOfficeTitle', { event: event.name }) : t('boxOffice')}
        </h2>
        <button type="button" onClick={onBack} data-testid="box-office-back">
          {t('boxOfficeBack')} <Kbd>Esc</Kbd>
        </button>
      </header>
      {view === null && <p className="message info">{t('boxOfficeNone')}</p>}
      {view !== null && view.events.length > 1 && (
        <div className="door-events" role="group" aria-label={t('boxOfficeChooseEvent')}>
          {view.events.map((one) => (
            <button
              key={one.id}
              type="button"
              className={one.id === event?.id ? 'on' : ''}
              aria-pressed={one.id === event?.id}
              onClick={() => {
                setCounts({});
                void store.chooseBoxOfficeEvent(one.id);
              }}
              data-testid="box-office-event-choice"
            >
              <strong>{one.name}</strong>
              <small>
                {one.venue} · {formatDateTime(one.startsAt * 1000)}
              </small>
            </button>
          ))}
        </div>
      )}
      {event && (
        <ul className="box-office-tiers" data-testid="box-office-tiers">
          {tiers.map((tier) => {
            const left = tier.left ?? 0;
            const count = quantity(tier.id);
            return (
              <li key={tier.id} data-testid="box-office-tier" data-tier={tier.id}>
                <span className="box-office-tier-name">
                  <strong>{tier.name}</strong>
                  <small>
                    {formatMoney(tier.price, currency)} ·{' '}
                    {tier.left === null
                      ? t('boxOfficeLeftUnknown')
                      : left === 0
                        ? t('boxOfficeSoldOut')
                        : t('boxOfficeLeft', { count: formatCount(left) })}
                  </small>
                </span>
                <span className="box-office-stepper">
                  <button
                    type="button"
                    onClick={() => step(tier.id, -1, left)}
                    disabled={count === 0}
                    aria-label={t('boxOfficeLess', { tier: tier.name })}
                    data-testid="box-office-less"
                  >
                    −
                  </button>
                  <output aria-live="polite" data-testid="box-office-count">
                    {count}
                  </output>
                  <button
                    type="button"
                    onClick={() => step(tier.id, 1, left)}
                    disabled={count >= left}
                    aria-label={t('boxOfficeMore', { tier: tier.name })}
                    data-testid="box-office-more"
                  >
                    +
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {event && (
        <footer className="box-office-pay">
          <p>
            <span>
              {t('boxOfficeTotal')} · {t('boxOfficeTickets', { count: formatCount(tickets) })}
            </span>
            <strong data-testid="box-office-total">{formatMoney(total, currency)}</strong>
          </p>
          <button
            type="button"
            className="primary huge"
            disabled={tickets === 0}
            onClick={pay}
            data-testid="box-office-pay"
          >
            {t('boxOfficePay')} <Kbd>F10</Kbd>
          </button>
          <small>{t('boxOfficePrinted')}</small>
        </footer>
      )}
      {paying && event && (
        <TenderDialog
          cart={{ total, currency }}
          sell={(tenders) =>
            store.sellTickets({
              event: event.id,
              lines: lines.map((tier) => ({ tier: tier.id, quantity: quantity(tier.id) })),
              tenders,
            })
          }
          onClose={() => setPaying(false)}
          onCompleted={(completed) => {
            setPaying(false);
            setCounts({});
            setDone(completed);
          }}
        />
      )}
      {done && <SaleDoneDialog completed={done} onClose={() => setDone(null)} />}
    </div>
  );
}
