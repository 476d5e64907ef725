/**
 * Developers: API keys, webhook endpoints, the delivery log with replay, the
 * request log and test events, each a tab at `/office/developers/<tab>` (a
 * delivery at `/office/developers/deliveries/<id>`), and the API reference.
 */
import { SubNav, tabOf } from '../../components/SubNav.tsx';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { ApiKeys } from './ApiKeys.tsx';
import { Deliveries, DeliveryDetail } from './Deliveries.tsx';
import { Logs } from './Logs.tsx';
import { TestEvent } from './TestEvent.tsx';
import { Webhooks } from './Webhooks.tsx';

const TABS = ['keys', 'webhooks', 'deliveries', 'logs', 'events'] as const;
type Tab = (typeof TABS)[number];
const TAB_WORDS: Record<Tab, MessageKey> = {
  keys: 'tabKeys',
  webhooks: 'tabWebhooks',
  deliveries: 'tabDeliveries',
  logs: 'tabLogs',
  events: 'tabTestEvents',
};

export function Developers({ rest }: { rest: string[] }) {
  const { t } = useI18n();
  const tab = tabOf(TABS, rest);
  return (
    <div className="page" data-testid="developers">
      <div className="page-head">
        <h1>{t('navDevelopers')}</h1>
        <a href="/docs" data-testid="api-docs">
          {t('apiDocs')}
        </a>
      </div>
      <SubNav
        page="developers"
        label={t('developersSections')}
        current={tab}
        tabs={TABS.map((name) => [name, t(TAB_WORDS[name])] as const)}
      />
      {tab === 'keys' && <ApiKeys />}
      {tab === 'webhooks' && <Webhooks />}
      {tab === 'deliveries' && (rest[1] ? <DeliveryDetail key={rest[1]} id={rest[1]} /> : <Deliveries />)}
      {tab === 'logs' && <Logs />}
      {tab === 'events' && <TestEvent />}
    </div>
  );
}
