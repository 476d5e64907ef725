/**
 * Products: the catalogue a page at a time (search by name, SKU or barcode),
 * a product's form at `/office/retail/products/<id>` and a new one at
 * `/office/retail/products/new`.
 */
import { TextField } from '../../components/TextField.tsx';
import { useState, type FormEvent } from 'react';
import { allPages, api } from '../../api.ts';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { PageLink } from '../../router.tsx';
import { formatMoney } from '../../shared.ts';
import { UNIT_WORDS, type Category, type Product } from './model.ts';
import { ProductForm } from './ProductForm.tsx';

export function Products({ id }: { id: string | undefined }) {
  if (id === 'new') return <ProductForm product={null} />;
  if (id) return <ProductById id={id} />;
  return <ProductList />;
}

function ProductById({ id }: { id: string }) {
  const [loaded, reload] = useLoad(() => api.get<Product>(`/v1/products/${encodeURIComponent(id)}`), id);
  if (loaded.kind === 'loading') return <Loading />;
  if (loaded.kind === 'failed') return <Failed error={loaded.error} onRetry={reload} />;
  return <ProductForm product={loaded.value} />;
}

function ProductList() {
  const { t } = useI18n();
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const list = useCursorList<Product>('/v1/products', { q });
  const [categories] = useLoad(() => allPages<Category>('/v1/retail/categories'), 'categories');
  const categoryName = (id: string | null) =>
    (categories.kind === 'done' && categories.value.find((category) => category.id === id)?.name) || '';
  const search = (event: FormEvent) => {
    event.preventDefault();
    setQ(typed.trim());
  };
  return (
    <>
      <div className="filters">
        <form className="filters" role="search" onSubmit={search} style={{ flex: '1 1 320px' }}>
          <TextField
            label={t('searchProducts')}
            value={typed}
            onChange={setTyped}
            type="search"
            testId="product-search"
          />
          <button type="submit">{t('search')}</button>
        </form>
        <PageLink
          page="retail"
          rest={['products', 'new']}
          className="button primary"
          data-testid="new-product"
        >
          {t('newProduct')}
        </PageLink>
      </div>
      <CursorListView list={list} empty={t('noProducts')}>
        {(rows) => (
          <DataTable
            testId="product-list"
            className="retail-table"
            columns={[
              t('retailName'),
              t('sku'),
              { label: t('price'), num: true },
              t('category'),
              t('status'),
            ]}
          >
            {rows.map((product) => (
              <tr key={product.id} data-testid="product-row" data-product={product.id}>
                <th scope="row" className="grow">
                  <PageLink page="retail" rest={['products', product.id]}>
                    {product.name}
                  </PageLink>
                  {product.variants.length > 0 && (
                    <span className="muted small">
                      {' '}
                      · {t('variantCount', { count: product.variants.length })}
                    </span>
                  )}
                </th>
                <td>{product.sku ?? ''}</td>
                <td className="num">
                  {formatMoney(product.price, product.currency)}
                  {product.unit !== 'piece' && ` / ${t(UNIT_WORDS[product.unit])}`}
                </td>
                <td>{categoryName(product.category)}</td>
                <td>{product.active ? t('forSale') : t('notForSale')}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </CursorListView>
    </>
  );
}
