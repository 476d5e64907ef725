/** Stores: each with its receipt prefix and VAT region; add one, rename it, make it the main store. */
import { useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { useI18n } from '../../i18n/index.ts';
import { Message } from '../../shared.ts';
import { NameForm } from './Categories.tsx';
import { type Store } from './model.ts';

export function Stores() {
  const { t } = useI18n();
  const list = useCursorList<Store>('/v1/retail/stores');
  const [region, setRegion] = useState<Store['vat_region']>('mainland');
  return (
    <>
      <NameForm
        title={t('newStore')}
        label={t('storeName')}
        testId="new-store"
        onSubmit={async (name) => {
          await api.post('/v1/retail/stores', { name, vat_region: region });
          list.reload();
        }}
      >
        <label>
          {t('vatRegion')}
          <select value={region} onChange={(event) => setRegion(event.target.value as Store['vat_region'])}>
            <option value="mainland">{t('mainland')}</option>
            <option value="zanzibar">{t('zanzibar')}</option>
          </select>
        </label>
      </NameForm>
      <CursorListView list={list} empty={t('noStores')}>
        {(rows) => (
          <ul className="stack" data-testid="store-list" style={{ listStyle: 'none', padding: 0 }}>
            {rows.map((store) => (
              <StoreRow key={store.id} store={store} onChanged={list.reload} />
            ))}
          </ul>
        )}
      </CursorListView>
    </>
  );
}

function StoreRow({ store, onChanged }: { store: Store; onChanged: () => void }) {
  const { t } = useI18n();
  const [name, setName] = useState(store.name);
  const { busy, error, run } = useAction();
  const save = (body: Record<string, unknown>) =>
    void run(async () => {
      await api.patch(`/v1/retail/stores/${store.id}`, body);
      onChanged();
    });
  const rename = (event: FormEvent) => {
    event.preventDefault();
    save({ name });
  };
  return (
    <li className="card stack" data-testid="store" data-store={store.id}>
      <div className="till-head">
        <h3>{store.name}</h3>
        {store.default && <span className="badge status-paired">{t('defaultMark')}</span>}
      </div>
      <dl className="facts">
        <div>
          <dt>{t('receiptPrefix')}</dt>
          <dd>{store.receipt_prefix}</dd>
        </div>
        <div>
          <dt>{t('vatRegion')}</dt>
          <dd>{t(store.vat_region)}</dd>
        </div>
      </dl>
      <form className="filters" onSubmit={rename}>
        <label>
          {t('storeName')}
          <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={200} />
        </label>
        <button type="submit" disabled={busy || name.trim() === '' || name === store.name}>
          {t('save')}
        </button>
        {!store.default && (
          <button type="button" disabled={busy} onClick={() => save({ default: true })}>
            {t('makeDefault')}
          </button>
        )}
      </form>
      <Message text={error} />
    </li>
  );
}
