/** A product's form: create, or edit with its variants and barcodes, and archive. */
import { TextField } from '../../components/TextField.tsx';
import { useState, type FormEvent } from 'react';
import { typedAmount } from '../../amount.ts';
import { allPages, api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { navigate, PageLink } from '../../router.tsx';
import { Message } from '../../shared.ts';
import { barcodesOf, UNITS, UNIT_WORDS, type Category, type Product, type Unit } from './model.ts';

interface VariantDraft {
  id: string | null;
  name: string;
  sku: string;
  barcodes: string;
  price: string;
}

type Translate = ReturnType<typeof useI18n>['t'];

/** An amount as typed (`12,500`), or a refusal naming the field in the page's words. */
function amountIn(t: Translate, text: string, field: 'price' | 'cost'): number {
  return typedAmount(text, t(field), { zero: true, reason: t('csv_amount_invalid') });
}

export function ProductForm({ product }: { product: Product | null }) {
  const { t } = useI18n();
  const { busy, error, run } = useAction();
  const [categories] = useLoad(() => allPages<Category>('/v1/retail/categories'), 'categories');
  const [name, setName] = useState(product?.name ?? '');
  const [sku, setSku] = useState(product?.sku ?? '');
  const [barcodes, setBarcodes] = useState(product?.barcodes.join(' ') ?? '');
  const [price, setPrice] = useState(product ? String(product.price) : '');
  const [cost, setCost] = useState(product?.cost === null || !product ? '' : String(product.cost));
  const [category, setCategory] = useState(product?.category ?? '');
  const [unit, setUnit] = useState<Unit>(product?.unit ?? 'piece');
  const [active, setActive] = useState(product?.active ?? true);
  const [trackStock, setTrackStock] = useState(product?.track_stock ?? true);
  const [favourite, setFavourite] = useState(
    product?.favourite_position ? String(product.favourite_position) : '',
  );
  const [variants, setVariants] = useState<VariantDraft[]>(
    product?.variants.map((v) => ({
      id: v.id,
      name: v.name,
      sku: v.sku ?? '',
      barcodes: v.barcodes.join(' '),
      price: String(v.price),
    })) ?? [],
  );
  const [saved, setSaved] = useState(false);
  const [archiving, setArchiving] = useState(false);
  const setVariant = (index: number, change: Partial<VariantDraft>) =>
    setVariants((all) => all.map((v, i) => (i === index ? { ...v, ...change } : v)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    void run(async () => {
      const fields = {
        name: name.trim(),
        sku: sku.trim() || null,
        barcodes: barcodesOf(barcodes),
        price: amountIn(t, price, 'price'),
        cost: cost.trim() === '' ? null : amountIn(t, cost, 'cost'),
        category: category || null,
        unit,
        active,
        track_stock: trackStock,
        favourite_position: favourite.trim() === '' ? null : Number(favourite),
      };
      const variantBody = (v: VariantDraft) => ({
        name: v.name.trim(),
        sku: v.sku.trim() || undefined,
        barcodes: barcodesOf(v.barcodes),
        price: v.price.trim() === '' ? undefined : amountIn(t, v.price, 'price'),
      });
      if (!product) {
        const created = await api.post<Product>('/v1/retail/products', {
          ...fields,
          sku: fields.sku ?? undefined,
          cost: fields.cost ?? undefined,
          category: fields.category ?? undefined,
          favourite_position: fields.favourite_position ?? undefined,
          variants: variants.map(variantBody),
        });
        navigate('retail', ['products', created.id]);
        return;
      }
      await api.patch(`/v1/retail/products/${product.id}`, fields);
      const kept = new Set(variants.map((v) => v.id));
      for (const old of product.variants)
        if (!kept.has(old.id)) await api.delete(`/v1/retail/variants/${old.id}`);
      for (const v of variants) {
        if (v.id)
          await api.patch(`/v1/retail/variants/${v.id}`, { ...variantBody(v), sku: v.sku.trim() || null });
        else await api.post(`/v1/retail/products/${product.id}/variants`, variantBody(v));
      }
      setSaved(true);
    });
  };

  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="product-form" data-testid="product-form">
      <div className="page-head">
        <h2 id="product-form">{product ? t('editProduct') : t('newProduct')}</h2>
        <PageLink page="retail" rest={['products']}>
          {t('backToProducts')}
        </PageLink>
      </div>
      <div className="retail-form">
        <label className="wide">
          {t('retailName')}
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            maxLength={200}
            data-testid="product-name"
          />
        </label>
        <TextField
          label={t('price')}
          value={price}
          onChange={setPrice}
          required
          inputMode="numeric"
          testId="product-price"
        />
        <TextField
          label={t('cost')}
          value={cost}
          onChange={setCost}
          inputMode="numeric"
          testId="product-cost"
        />
        <TextField label={t('sku')} value={sku} onChange={setSku} maxLength={64} testId="product-sku" />
        <label>
          {t('barcodes')} <span className="muted small">({t('barcodesHint')})</span>
          <input
            value={barcodes}
            onChange={(e) => setBarcodes(e.target.value)}
            data-testid="product-barcodes"
          />
        </label>
        <label>
          {t('category')}
          <select
            value={category}
            onChange={(e) => setCategory(e.target.value)}
            data-testid="product-category"
          >
            <option value="">{t('noCategory')}</option>
            {categories.kind === 'done' &&
              categories.value.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
          </select>
        </label>
        <label>
          {t('soldBy')}
          <select value={unit} onChange={(e) => setUnit(e.target.value as Unit)} data-testid="product-unit">
            {UNITS.map((u) => (
              <option key={u} value={u}>
                {t(UNIT_WORDS[u])}
              </option>
            ))}
          </select>
        </label>
        <TextField
          label={t('favouritePlace')}
          value={favourite}
          onChange={setFavourite}
          inputMode="numeric"
          pattern="[0-9]{1,3}"
        />
        <label className="check">
          <input
            type="checkbox"
            checked={active}
            onChange={(e) => setActive(e.target.checked)}
            data-testid="product-active"
          />
          {t('forSale')}
        </label>
        <label className="check">
          <input type="checkbox" checked={trackStock} onChange={(e) => setTrackStock(e.target.checked)} />
          {t('trackStock')}
        </label>
      </div>
      <fieldset className="stack">
        <legend>{t('variants')}</legend>
        {variants.map((v, index) => (
          <div className="variant-row" key={v.id ?? `new-${index}`} data-testid="variant">
            <label>
              {t('variantName')}
              <input
                value={v.name}
                onChange={(e) => setVariant(index, { name: e.target.value })}
                required
                maxLength={200}
              />
            </label>
            <label>
              {t('sku')}
              <input
                value={v.sku}
                onChange={(e) => setVariant(index, { sku: e.target.value })}
                maxLength={64}
              />
            </label>
            <label>
              {t('barcodes')}
              <input value={v.barcodes} onChange={(e) => setVariant(index, { barcodes: e.target.value })} />
            </label>
            <label>
              {t('price')}
              <input
                value={v.price}
                onChange={(e) => setVariant(index, { price: e.target.value })}
                inputMode="numeric"
              />
            </label>
            <button
              type="button"
              className="ghost danger"
              onClick={() => setVariants((all) => all.filter((_, i) => i !== index))}
              aria-label={t('removeVariant', { name: v.name })}
            >
              ✕
            </button>
          </div>
        ))}
        <div>
          <button
            type="button"
            onClick={() =>
              setVariants((all) => [...all, { id: null, name: '', sku: '', barcodes: '', price: '' }])
            }
            data-testid="add-variant"
          >
            {t('addVariant')}
          </button>
        </div>
      </fieldset>
      <Message text={error} />
      {saved && (
        <p role="status" data-testid="product-saved">
          {t('saved')}
        </p>
      )}
      <div className="row-actions">
        <button type="submit" className="primary" disabled={busy} data-testid="save-product">
          {t('save')}
        </button>
        {product && !product.deleted && (
          <button
            type="button"
            className="ghost danger"
            onClick={() => setArchiving(true)}
            data-testid="archive-product"
          >
            {t('archiveProduct')}
          </button>
        )}
      </div>
      {archiving && product && <ArchiveDialog product={product} onClose={() => setArchiving(false)} />}
    </form>
  );
}

function ArchiveDialog({ product, onClose }: { product: Product; onClose: () => void }) {
  const { t } = useI18n();
  return (
    <ConfirmDialog
      title={t('archiveProduct')}
      lead={t('archiveProductLead', { name: product.name })}
      confirm={t('archive')}
      onConfirm={async () => {
        await api.delete(`/v1/retail/products/${product.id}`);
        navigate('retail', ['products']);
      }}
      onClose={onClose}
      testId="archive-dialog"
      confirmTestId="confirm-archive"
    />
  );
}
