/**
 * Retail: the catalogue, its CSV file, categories, stores, stock, orders and
 * shifts, each a tab at `/office/retail/<tab>[/<id>]`.
 */
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { PageLink } from '../../router.tsx';
import { Categories } from './Categories.tsx';
import { ImportExport } from './ImportExport.tsx';
import { Orders } from './Orders.tsx';
import { Products } from './Products.tsx';
import { Shifts } from './Shifts.tsx';
import { Stock } from './Stock.tsx';
import { Stores } from './Stores.tsx';
import './retail.css';

const TABS = ['products', 'import', 'categories', 'stores', 'stock', 'orders', 'shifts'] as const;
type Tab = (typeof TABS)[number];
const TAB_WORDS: Record<Tab, MessageKey> = {
  products: 'tabProducts',
  import: 'tabImport',
  categories: 'tabCategories',
  stores: 'tabStores',
  stock: 'tabStock',
  orders: 'tabOrders',
  shifts: 'tabShifts',
};

export function Retail({ rest }: { rest: string[] }) {
  const { t } = useI18n();
  const [first, id] = rest;
  const tab: Tab = (TABS as readonly string[]).includes(first ?? '') ? (first as Tab) : 'products';
  return (
    <div className="page" data-testid="retail">
      <div className="page-head">
        <h1>{t('navRetail')}</h1>
      </div>
      <nav className="retail-tabs" aria-label={t('retailTabs')}>
        <ul>
          {TABS.map((name) => (
            <li key={name}>
              <PageLink
                page="retail"
                rest={[name]}
                aria-current={name === tab ? 'page' : undefined}
                data-testid={`tab-${name}`}
              >
                {t(TAB_WORDS[name])}
              </PageLink>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-label={t(TAB_WORDS[tab])} className="stack">
        <TabOf tab={tab} id={id} />
      </section>
    </div>
  );
}

function TabOf({ tab, id }: { tab: Tab; id: string | undefined }) {
  switch (tab) {
    case 'products':
      return <Products id={id} />;
    case 'import':
      return <ImportExport />;
    case 'categories':
      return <Categories />;
    case 'stores':
      return <Stores />;
    case 'stock':
      return <Stock />;
    case 'orders':
      return <Orders />;
    case 'shifts':
      return <Shifts id={id} />;
  }
}
