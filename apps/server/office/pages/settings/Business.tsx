/**
 * The business: its name (the account's, in both modes, shown in the frame),
 * its default language (the office's on a browser that has not chosen one, and
 * new stores' receipts'), and what the default store's receipts carry: TIN,
 * VRN, header and footer lines and the language they are printed in.
 */
import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../../api.ts';
import { useAction } from '../../action.ts';
import { SelectField } from '../../components/SelectField.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { TextField } from '../../components/TextField.tsx';
import type { ErrorWords } from '../../errors.ts';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { useSession, useSignedIn } from '../../session.tsx';
import { Message, type Language } from '../../shared.ts';

interface ReceiptSettings {
  name: string;
  tin: string | null;
  vrn: string | null;
  receipt_header: string[];
  receipt_footer: string[];
  receipt_language: Language;
}

const WORDS: ErrorWords = {
  fields: {
    business_name: 'businessName',
    default_language: 'businessLanguage',
    tin: 'businessTin',
    vrn: 'businessVrn',
    receipt_header: 'receiptHeader',
    receipt_footer: 'receiptFooter',
    receipt_language: 'receiptLanguage',
  },
};

/** A form's saving: busy while it runs, its refusal in words, and whether the last save went through. */
function useSave(work: () => Promise<void>) {
  const [saved, setSaved] = useState(false);
  const { busy, error, run } = useAction(WORDS);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    void run(async () => {
      await work();
      setSaved(true);
    });
  };
  return { busy, error, saved, submit };
}

export function Business() {
  const { t } = useI18n();
  return (
    <section className="card stack" aria-labelledby="business" data-testid="business">
      <h2 id="business">{t('businessTitle')}</h2>
      <Account />
      <Receipts />
    </section>
  );
}

const LANGUAGE_OPTIONS = [
  ['sw', 'Kiswahili'],
  ['en', 'English'],
] as const;

/** The account's own fields, in both modes: the name and the default language. */
function Account() {
  const { t } = useI18n();
  const session = useSignedIn();
  const { refresh } = useSession();
  const [name, setName] = useState(session.merchant.business_name);
  const [language, setLanguage] = useState<Language>(session.merchant.default_language);
  const { busy, error, saved, submit } = useSave(async () => {
    await api.patch('/v1/account', { business_name: name.trim(), default_language: language });
    await refresh();
  });
  return (
    <form className="stack" onSubmit={submit}>
      <p id="business-language-hint" className="muted">
        {t('businessLanguageHint')}
      </p>
      <div className="form-row">
        <TextField
          label={t('businessName')}
          value={name}
          onChange={setName}
          required
          maxLength={200}
          testId="business-name"
        />
        <SelectField<Language>
          label={t('businessLanguage')}
          value={language}
          onChange={setLanguage}
          options={LANGUAGE_OPTIONS}
          aria-describedby="business-language-hint"
          testId="business-language"
        />
        <button type="submit" disabled={busy} data-testid="save-business-name">
          {t('save')}
        </button>
      </div>
      <Message text={error} />
      <Message kind="ok" text={saved ? t('businessSaved') : null} />
    </form>
  );
}

/** The default store's receipt settings; an account with no store yet gets one on saving. */
function Receipts() {
  const [loaded, reload] = useLoad(
    () =>
      api.get<ReceiptSettings>('/v1/retail/store').catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }),
    'store',
  );
  if (loaded.kind === 'loading') return <Loading />;
  if (loaded.kind === 'failed') return <Failed error={loaded.error} onRetry={reload} />;
  return <ReceiptForm store={loaded.value} />;
}

const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

function ReceiptForm({ store }: { store: ReceiptSettings | null }) {
  const { t } = useI18n();
  const [tin, setTin] = useState(store?.tin ?? '');
  const [vrn, setVrn] = useState(store?.vrn ?? '');
  const [header, setHeader] = useState(store?.receipt_header.join('\n') ?? '');
  const [footer, setFooter] = useState(store?.receipt_footer.join('\n') ?? '');
  const session = useSignedIn();
  // A store not made yet is made in the business's language.
  const [language, setLanguage] = useState<Language>(
    store?.receipt_language ?? session.merchant.default_language,
  );
  const { busy, error, saved, submit } = useSave(async () => {
    const updated = await api.patch<ReceiptSettings>('/v1/retail/store', {
      tin: tin.trim() || null,
      vrn: vrn.trim() || null,
      receipt_header: linesOf(header),
      receipt_footer: linesOf(footer),
      receipt_language: language,
    });
    // As the server wrote them (a TIN as 123-456-789).
    setTin(updated.tin ?? '');
    setVrn(updated.vrn ?? '');
  });
  return (
    <form className="stack" onSubmit={submit} aria-labelledby="receipts">
      <h3 id="receipts">{t('receiptsTitle')}</h3>
      <p className="muted">{store ? t('receiptsLead', { store: store.name }) : t('receiptsNoStore')}</p>
      <div className="form-row">
        <TextField
          label={t('businessTin')}
          value={tin}
          onChange={setTin}
          placeholder="123-456-789"
          testId="business-tin"
        />
        <TextField
          label={t('businessVrn')}
          value={vrn}
          onChange={setVrn}
          placeholder="40-012345-A"
          testId="business-vrn"
        />
        <SelectField<Language>
          label={t('receiptLanguage')}
          value={language}
          onChange={setLanguage}
          options={LANGUAGE_OPTIONS}
          testId="receipt-language"
        />
      </div>
      <div className="form-row">
        {(
          [
            ['receiptHeader', header, setHeader, 'receipt-header'],
            ['receiptFooter', footer, setFooter, 'receipt-footer'],
          ] as const
        ).map(([label, value, onChange, testId]) => (
          <TextField
            key={testId}
            label={t(label)}
            value={value}
            onChange={onChange}
            rows={3}
            aria-describedby="receipt-lines"
            testId={testId}
          />
        ))}
      </div>
      <p id="receipt-lines" className="muted small">
        {t('receiptLines')}
      </p>
      <Message text={error} />
      <Message kind="ok" text={saved ? t('receiptsSaved') : null} />
      <div>
        <button type="submit" className="primary" disabled={busy} data-testid="save-receipts">
          {t('save')}
        </button>
      </div>
    </form>
  );
}
