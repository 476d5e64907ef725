/**
 * F3: the sale's customer. Find one by name or phone, or add a new one (name
 * and mobile number), offline too; the customer goes on the sale and its
 * receipt. Keyboard first: type a name or number and Enter picks the
 * highlighted customer, or, when nobody matches, opens the new customer's form
 * with what was typed already in it (a number as the phone, anything else as the name).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { TillCustomer } from '../../data/api.ts';
import { useI18n } from '../../i18n/index.tsx';
import { Dialog, Message } from '../components/Dialog.tsx';
import { useNotify } from '../notices.tsx';
import { refusalCode, refusalText } from '../refusal.ts';
import { useStore } from '../store.tsx';

/** `255712345678` as a Tanzanian writes it: `0712 345 678`. Anything else as it is. */
export function displayPhone(phone: string | null): string {
  if (!phone || !/^255\d{9}$/.test(phone)) return phone ?? '';
  const local = `0${phone.slice(3)}`;
  return `${local.slice(0, 4)} ${local.slice(4, 7)} ${local.slice(7)}`;
}

const looksLikePhone = (text: string) => /^[+\d][\d\s\-.()]*$/.test(text.trim());

export function CustomerDialog({ current, onClose }: { current: TillCustomer | null; onClose: () => void }) {
  const { t } = useI18n();
  const [draft, setDraft] = useState<{ name: string; phone: string } | null>(null);
  return (
    <Dialog title={draft ? t('newCustomer') : t('customer')} onClose={onClose} testId="customer-dialog">
      {draft ? (
        <NewCustomerForm draft={draft} onBack={() => setDraft(null)} onDone={onClose} />
      ) : (
        <FindCustomer current={current} onNew={setDraft} onDone={onClose} />
      )}
    </Dialog>
  );
}

function FindCustomer({
  current,
  onNew,
  onDone,
}: {
  current: TillCustomer | null;
  onNew: (draft: { name: string; phone: string }) => void;
  onDone: () => void;
}) {
  const store = useStore();
  const { t, language } = useI18n();
  const [text, setText] = useState('');
  const [found, setFound] = useState<TillCustomer[] | null>(null);
  /** The text `found` answers. */
  const [foundFor, setFoundFor] = useState('');
  /** An Enter pressed before the answer to its text came: carried out when that answer comes, never on an older one. */
  const enterFor = useRef<string | null>(null);
  const [index, setIndex] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const choose = (id: string | null) =>
    store.setCustomer(id).then(onDone, (failure: unknown) => setError(refusalText(language, failure)));
  const startNew = (typed: string) =>
    onNew(looksLikePhone(typed) ? { name: '', phone: typed.trim() } : { name: typed.trim(), phone: '' });
  /** Enter on an answer: the highlighted customer, or nobody matches (or nothing typed yet) and a new one with what was typed. */
  const enter = (typed: string, customers: TillCustomer[] | null, at: number) => {
    const pick = customers?.[at];
    if (pick) void choose(pick.id);
    else startNew(typed);
  };
  useEffect(() => {
    let live = true;
    if (text.trim() === '') {
      setFound(null);
      setFoundFor('');
      return;
    }
    store.searchCustomers(text.trim(), 12).then(
      (customers) => {
        if (!live) return;
        setFound(customers);
        setFoundFor(text.trim());
        setIndex(0);
        if (enterFor.current === text.trim()) {
          enterFor.current = null;
          enter(text, customers, 0);
        }
      },
      (failure: unknown) => setError(refusalText(language, failure)),
    );
    return () => {
      live = false;
    };
  }, [text, store, t]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The answer to this text is still coming (a slow till, a fast typist): Enter waits for it.
    if (text.trim() !== foundFor) enterFor.current = text.trim();
    else enter(text, found, index);
  };
  return (
    <form className="stack" onSubmit={submit}>
      <input
        className="big-input"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={t('searchCustomers')}
        aria-label={t('searchCustomers')}
        autoFocus
        autoComplete="off"
        data-free-text
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') setIndex((i) => Math.min((found?.length ?? 1) - 1, i + 1));
          if (event.key === 'ArrowUp') setIndex((i) => Math.max(0, i - 1));
        }}
      />
      {found?.length === 0 && <p className="muted">{t('noCustomerFound')}</p>}
      {found && found.length > 0 && (
        <ul className="pick-list" data-testid="customer-results">
          {found.map((customer, position) => (
            <li key={customer.id}>
              <button
                type="button"
                className={position === index ? 'active' : ''}
                onClick={() => void choose(customer.id)}
              >
                <strong>{customer.name ?? displayPhone(customer.phone)}</strong>
                <span className="muted">
                  {customer.phone ? displayPhone(customer.phone) : customer.email}
                  {customer.unsynced && ` · ${t('customerNotSynced')}`}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <button type="button" className="big" onClick={() => startNew(text)} data-testid="new-customer">
          + {t('newCustomer')}
        </button>
        {current && (
          <button
            type="button"
            className="big"
            onClick={() => void choose(null)}
            data-testid="remove-customer"
          >
            {t('removeCustomer')}: {current.name ?? displayPhone(current.phone)}
          </button>
        )}
      </div>
      <Message text={error} />
    </form>
  );
}

function NewCustomerForm({
  draft,
  onBack,
  onDone,
}: {
  draft: { name: string; phone: string };
  onBack: () => void;
  onDone: () => void;
}) {
  const store = useStore();
  const { t, language } = useI18n();
  const notify = useNotify();
  const [name, setName] = useState(draft.name);
  const [phone, setPhone] = useState(draft.phone);
  const [problem, setProblem] = useState<{ field: 'name' | 'phone' | null; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const { customer, existing } = await store.createCustomer({ name, phone });
      await store.setCustomer(customer.id);
      if (existing)
        notify(t('customerAlreadyKnown', { name: customer.name ?? displayPhone(customer.phone) }));
      onDone();
    } catch (failure) {
      const code = refusalCode(failure);
      const field = code === 'phone_invalid' ? 'phone' : code === 'customer_name_missing' ? 'name' : null;
      setProblem({ field, text: refusalText(language, failure) });
      setBusy(false);
    }
  };
  return (
    <form className="stack" onSubmit={(event) => void submit(event)} data-testid="new-customer-form">
      <label>
        {t('customerName')}
        <input
          className="big-input"
          value={name}
          onChange={(event) => setName(event.target.value)}
          autoFocus={draft.name === ''}
          autoComplete="off"
          maxLength={200}
          aria-invalid={problem?.field === 'name'}
          data-free-text
          data-testid="customer-name"
        />
      </label>
      <label>
        {t('customerPhone')}
        <input
          className="big-input"
          value={phone}
          onChange={(event) => setPhone(event.target.value)}
          autoFocus={draft.name !== ''}
          inputMode="tel"
          autoComplete="off"
          placeholder={t('customerPhoneHint')}
          aria-invalid={problem?.field === 'phone'}
          data-free-text
          data-testid="customer-phone"
        />
      </label>
      <Message text={problem?.text ?? null} />
      <div className="row">
        <button type="button" className="big" onClick={onBack}>
          {t('cancel')}
        </button>
        <button type="submit" className="primary big" disabled={busy}>
          {t('saveCustomer')}
        </button>
      </div>
    </form>
  );
}

/** The cart's customer line: who the sale is for, with their number, and a way to take them off. */
export function CartCustomer({ customer, onOpen }: { customer: TillCustomer | null; onOpen: () => void }) {
  const store = useStore();
  const { t } = useI18n();
  if (!customer) return null;
  return (
    <div className="cart-customer" data-testid="cart-customer">
      <button type="button" className="ghost" onClick={onOpen}>
        <span className="muted">{t('customer')}</span>
        <strong>{customer.name ?? displayPhone(customer.phone)}</strong>
        {customer.name && customer.phone && <span>{displayPhone(customer.phone)}</span>}
        {customer.unsynced && <small className="muted">{t('customerNotSynced')}</small>}
      </button>
      <button
        type="button"
        className="ghost remove"
        onClick={() => void store.setCustomer(null)}
        aria-label={t('removeCustomer')}
        title={t('removeCustomer')}
      >
        ×
      </button>
    </div>
  );
}
