/**
 * Retail: the catalogue, its CSV file, categories, stores, stock, orders and
 * shifts, each a tab at `/office/retail/<tab>[/<id>]`.
 */
import { SubNav, tabOf } from '../../components/SubNav.tsx';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
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
  const [, id] = rest;
  const tab = tabOf(TABS, rest);
  return (
    <div className="page" data-testid="retail">
      <div className="page-head">
        <h1>{t('navRetail')}</h1>
      </div>
      <SubNav
        page="retail"
        label={t('retailTabs')}
        current={tab}
        tabs={TABS.map((name) => [name, t(TAB_WORDS[name])] as const)}
      />
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
