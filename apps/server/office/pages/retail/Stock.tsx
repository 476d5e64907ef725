/** Stock: a store's levels (or its low ones only), and changing one found by its SKU or barcode. */
import { TextField } from '../../components/TextField.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { useRef, useState, type FormEvent } from 'react';
import { allPages, api, type List } from '../../api.ts';
import { useAction } from '../../action.ts';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { formatCount, Message } from '../../shared.ts';
import { formatMilli, type Product, type Store } from './model.ts';
import {
  ReorderDialog,
  STOCK_WORDS,
  typedReorder,
  useReorderText,
  type StockLevel,
} from './ReorderLevel.tsx';

const REASONS = ['received', 'count', 'damaged', 'lost', 'returned', 'correction'] as const;

export function Stock() {
  const { t } = useI18n();
  const [stores, reload] = useLoad(() => allPages<Store>('/v1/retail/stores'), 'stores');
  if (stores.kind === 'loading') return <Loading />;
  if (stores.kind === 'failed') return <Failed error={stores.error} onRetry={reload} />;
  if (stores.value.length === 0) return <p className="muted">{t('noStores')}</p>;
  return <StoreStock stores={stores.value} />;
}

function StoreStock({ stores }: { stores: Store[] }) {
  const { t } = useI18n();
  const [store, setStore] = useState(() => (stores.find((s) => s.default) ?? stores[0]!).id);
  const [low, setLow] = useState(false);
  const list = useCursorList<StockLevel>(`/v1/retail/stores/${store}/stock`, {
    low: low ? 'true' : undefined,
  });
  const products = useProducts(
    list.loaded.kind === 'done' ? list.loaded.value.data.map((level) => level.product) : [],
  );
  const reorderText = useReorderText();
  const [editing, setEditing] = useState<StockLevel | null>(null);
  /** The row's name; until its product is read, a quiet placeholder rather than its id. */
  const nameOf = (level: StockLevel) => {
    const product = products.known.get(level.product);
    if (!product) return products.failed ? level.product : null;
    const variant = product.variants.find((v) => v.id === level.variant);
    return `${product.name}${variant ? ` · ${variant.name}` : ''}`;
  };
  return (
    <>
      <div className="filters">
        <SelectField
          label={t('store')}
          value={store}
          onChange={setStore}
          options={stores.map((s) => [s.id, s.name] as const)}
          testId="stock-store"
        />
        <label className="check" style={{ flexDirection: 'row', alignItems: 'center' }}>
          <input
            type="checkbox"
            checked={low}
            onChange={(event) => setLow(event.target.checked)}
            data-testid="low-only"
          />
          {t('lowOnly')}
        </label>
      </div>
      <Adjust store={store} onDone={list.reload} />
      <CursorListView list={list} empty={t('noStock')}>
        {(rows) => (
          <DataTable
            testId="stock-list"
            className="retail-table"
            columns={[
              t('product'),
              { label: t('onHand'), num: true },
              { label: t('reorderAt'), num: true },
              t('status'),
            ]}
          >
            {rows.map((level) => (
              <tr key={level.id} data-testid="stock-level">
                <th scope="row" className="grow">
                  {nameOf(level) ?? (
                    <span className="muted" data-testid="name-loading">
                      …
                    </span>
                  )}
                </th>
                <td className="num">{formatMilli(level.on_hand_milli, level.unit, formatCount)}</td>
                <td className="num">
                  <button
                    type="button"
                    className="ghost reorder-change"
                    aria-label={t('reorderChange', { name: nameOf(level) ?? '', level: reorderText(level) })}
                    disabled={nameOf(level) === null}
                    onClick={() => setEditing(level)}
                    data-testid="reorder-change"
                  >
                    {reorderText(level)}
                  </button>
                </td>
                <td>{level.low && <span className="mark-low">{t('lowMark')}</span>}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </CursorListView>
      {editing && (
        <ReorderDialog
          store={store}
          level={editing}
          name={nameOf(editing) ?? ''}
          onClose={() => setEditing(null)}
          onSaved={list.reload}
        />
      )}
    </>
  );
}

/**
 * The products of a page's rows, read once each (25 at most, side by side) and
 * kept across pages and reloads, so a row shows its name as soon as it can.
 */
function useProducts(ids: string[]): { known: Map<string, Product>; failed: boolean } {
  const known = useRef(new Map<string, Product>());
  const missing = [...new Set(ids)].filter((id) => !known.current.has(id));
  const [loaded] = useLoad(async () => {
    const found = await Promise.all(missing.map((id) => api.get<Product>(`/v1/products/${id}`)));
    for (const product of found) known.current.set(product.id, product);
    return found.length;
  }, missing.join(','));
  return { known: known.current, failed: loaded.kind === 'failed' };
}

function Adjust({ store, onDone }: { store: string; onDone: () => void }) {
  const { t } = useI18n();
  const { busy, error, run } = useAction(STOCK_WORDS);
  const [code, setCode] = useState('');
  const [by, setBy] = useState('');
  const [reorder, setReorder] = useState('');
  const [reason, setReason] = useState<(typeof REASONS)[number]>('received');
  const [done, setDone] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    void run(async () => {
      const found = await api.get<List<Product>>(`/v1/products?limit=1&q=${encodeURIComponent(code.trim())}`);
      const product = found.data[0];
      if (!product) {
        setDone(t('noSuchProduct'));
        return;
      }
      const variant = product.variants.find(
        (v) => v.sku?.toLowerCase() === code.trim().toLowerCase() || v.barcodes.includes(code.trim()),
      );
      // The reorder level is typed in the product's unit; the API takes thousandths of it.
      const reorderMilli = reorder.trim() === '' ? undefined : typedReorder(reorder, product.unit);
      const level = await api.post<StockLevel>('/v1/retail/stock-adjustments', {
        store,
        product: product.id,
        ...(variant ? { variant: variant.id } : {}),
        ...(by.trim() === '' ? {} : { adjust_by: Number(by) }),
        ...(reorderMilli === undefined ? {} : { reorder_level_milli: reorderMilli }),
        reason,
      });
      const quantity = formatMilli(level.on_hand_milli, level.unit, formatCount);
      setDone(
        level.reorder_level_milli === null
          ? t('stockChanged', { name: product.name, quantity })
          : t('stockChangedReorder', {
              name: product.name,
              quantity,
              level: formatMilli(level.reorder_level_milli, level.unit, formatCount),
            }),
      );
      setCode('');
      setBy('');
      setReorder('');
      onDone();
    });
  };
  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="adjust-title" data-testid="adjust">
      <h2 id="adjust-title">{t('adjustStock')}</h2>
      <p className="muted">{t('adjustLead')}</p>
      <p className="muted" id="reorder-hint">
        {t('reorderHint')}
      </p>
      <div className="filters">
        <TextField label={t('productCode')} value={code} onChange={setCode} required testId="adjust-code" />
        <TextField
          label={t('adjustBy')}
          value={by}
          onChange={setBy}
          inputMode="numeric"
          pattern="-?[0-9]+"
          testId="adjust-by"
        />
        <TextField
          label={t('reorderAt')}
          value={reorder}
          onChange={setReorder}
          inputMode="decimal"
          aria-describedby="reorder-hint"
          testId="adjust-reorder"
        />
        <label>
          {t('reason')}
          <select
            value={reason}
            onChange={(event) => setReason(event.target.value as (typeof REASONS)[number])}
          >
            {REASONS.map((r) => (
              <option key={r} value={r}>
                {t(`reason_${r}` as MessageKey)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={busy} data-testid="adjust-submit">
          {t('save')}
        </button>
      </div>
      <Message text={error} />
      {done && (
        <p role="status" data-testid="adjust-done">
          {done}
        </p>
      )}
    </form>
  );
}
