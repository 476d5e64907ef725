/**
 * Employees: the cashiers and managers who sign in to the tills of their
 * stores with a PIN. Creating one, editing the name, role and stores, a new
 * PIN (stored hashed, never shown), deactivating and activating again.
 */
import { useState, type FormEvent } from 'react';
import { allPages, api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { Actions } from '../../components/Actions.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { Facts } from '../../components/Facts.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { Message } from '../../shared.ts';
import type { Store } from '../Tills.tsx';
import { EmployeeDialog } from './EmployeeDialog.tsx';
import {
  EMPLOYEE_WORDS,
  EmployeeFields,
  PinField,
  type Employee,
  type EmployeeDraft,
} from './EmployeeFields.tsx';

export function Employees() {
  const { t } = useI18n();
  const [stores, reloadStores] = useLoad(() => allPages<Store>('/v1/retail/stores'), 'stores');
  return (
    <div className="page" data-testid="employees">
      <div className="page-head">
        <h1>{t('employeesTitle')}</h1>
      </div>
      <p className="muted">{t('employeesLead')}</p>
      {stores.kind === 'loading' && <Loading />}
      {stores.kind === 'failed' && <Failed error={stores.error} onRetry={reloadStores} />}
      {stores.kind === 'done' &&
        (stores.value.length === 0 ? (
          <p className="card">{t('employeesNoStore')}</p>
        ) : (
          <EmployeeList stores={stores.value} />
        ))}
    </div>
  );
}

type Editing = { employee: Employee; part: 'details' | 'pin' };

function EmployeeList({ stores }: { stores: Store[] }) {
  const { t } = useI18n();
  const [active, setActive] = useState<'' | 'true' | 'false'>('true');
  const list = useCursorList<Employee>('/v1/employees', { active });
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deactivating, setDeactivating] = useState<Employee | null>(null);
  const storeNames = (ids: string[]) =>
    ids.map((id) => stores.find((store) => store.id === id)?.name ?? id).join(', ');
  const setActiveOf = (employee: Employee, on: boolean) =>
    api.patch(`/v1/employees/${employee.id}`, { active: on }).then(list.reload);
  return (
    <>
      <NewEmployee stores={stores} onCreated={list.reload} />
      <div className="filters">
        <SelectField
          label={t('employeesShow')}
          value={active}
          onChange={setActive}
          options={[
            ['true', t('employeesActive')],
            ['false', t('employeesInactive')],
            ['', t('employeesAll')],
          ]}
          testId="employees-filter"
        />
      </div>
      <CursorListView list={list} empty={t('employeesEmpty')}>
        {(employees) => (
          <ul className="cards" data-testid="employee-list">
            {employees.map((employee) => (
              <li key={employee.id} className="card" data-testid="employee" data-employee={employee.id}>
                <div className="card-head">
                  <h3>{employee.name}</h3>
                  <span className={`badge status-${employee.active ? 'active' : 'inactive'}`}>
                    {t(employee.active ? 'employeeActive' : 'employeeInactive')}
                  </span>
                </div>
                <Facts
                  facts={[
                    [t('employeeRole'), t(employee.role === 'manager' ? 'roleManager' : 'roleCashier')],
                    [t('employeeStores'), storeNames(employee.stores)],
                  ]}
                />
                <Actions
                  actions={[
                    {
                      label: t('employeeEdit'),
                      onClick: () => setEditing({ employee, part: 'details' }),
                      testId: 'edit-employee',
                    },
                    employee.active && {
                      label: t('employeeSetPin'),
                      onClick: () => setEditing({ employee, part: 'pin' }),
                      testId: 'set-pin',
                    },
                    employee.active
                      ? {
                          label: t('employeeDeactivate'),
                          onClick: () => setDeactivating(employee),
                          testId: 'deactivate',
                          className: 'ghost danger',
                        }
                      : {
                          label: t('employeeActivate'),
                          onClick: () => void setActiveOf(employee, true),
                          testId: 'activate',
                          className: 'ghost',
                        },
                  ]}
                />
              </li>
            ))}
          </ul>
        )}
      </CursorListView>
      {editing && (
        <EmployeeDialog
          employee={editing.employee}
          part={editing.part}
          stores={stores}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            list.reload();
          }}
        />
      )}
      {deactivating && (
        <ConfirmDialog
          title={t('employeeDeactivateTitle', { name: deactivating.name })}
          lead={t('employeeDeactivateLead')}
          confirm={t('employeeDeactivate')}
          onClose={() => setDeactivating(null)}
          onConfirm={async () => {
            await setActiveOf(deactivating, false);
            setDeactivating(null);
          }}
        />
      )}
    </>
  );
}

function NewEmployee({ stores, onCreated }: { stores: Store[]; onCreated: () => void }) {
  const { t } = useI18n();
  const fresh = (): EmployeeDraft => ({
    name: '',
    role: 'cashier',
    stores: [stores.find((store) => store.default)?.id ?? stores[0]!.id],
  });
  const [draft, setDraft] = useState(fresh);
  const [pin, setPin] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const { busy, error, run } = useAction(EMPLOYEE_WORDS);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setCreated(null);
    void run(async () => {
      const employee = await api.post<Employee>('/v1/employees', { ...draft, name: draft.name.trim(), pin });
      setDraft(fresh());
      setPin('');
      setCreated(t('employeeCreated', { name: employee.name }));
      onCreated();
    });
  };
  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="new-employee">
      <h2 id="new-employee">{t('employeeNew')}</h2>
      <EmployeeFields draft={draft} onChange={setDraft} stores={stores} />
      <div className="form-row">
        <PinField value={pin} onChange={setPin} role={draft.role} />
        <button type="submit" className="primary" disabled={busy} data-testid="create-employee">
          {t('employeeCreate')}
        </button>
      </div>
      <p className="muted small">{t('pinLead')}</p>
      <Message text={error} />
      <Message kind="ok" text={created} />
    </form>
  );
}
