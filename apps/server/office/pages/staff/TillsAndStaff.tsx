/** Tills and staff: the tills, the employees and the printers, each a tab at `/office/tills/<tab>`. */
import { SubNav, tabOf } from '../../components/SubNav.tsx';
import { useI18n } from '../../i18n/index.ts';
import { Tills } from '../Tills.tsx';
import { Employees } from './Employees.tsx';
import { Printers } from './Printers.tsx';

const TABS = ['tills', 'staff', 'printers'] as const;

export function TillsAndStaff({ rest }: { rest: string[] }) {
  const { t } = useI18n();
  const tab = tabOf(TABS, rest);
  return (
    <>
      <SubNav
        page="tills"
        label={t('navTills')}
        current={tab}
        tabs={[
          ['tills', t('tillsTitle')],
          ['staff', t('employeesTitle')],
          ['printers', t('printersTitle')],
        ]}
      />
      {tab === 'tills' && <Tills />}
      {tab === 'staff' && <Employees />}
      {tab === 'printers' && <Printers />}
    </>
  );
}
