/** An employee as the office reads it, and its name, role, stores and PIN as a new employee's form and the edit dialog fill them in. */
import { SelectField } from '../../components/SelectField.tsx';
import type { ErrorWords } from '../../errors.ts';
import { useI18n } from '../../i18n/index.ts';
import type { Store } from '../Tills.tsx';

export type Role = 'cashier' | 'manager';

export interface Employee {
  id: string;
  name: string;
  role: Role;
  stores: string[];
  active: boolean;
  updated: number;
}

export const EMPLOYEE_WORDS: ErrorWords = {
  codes: { pin_taken: 'pinTaken' },
  fields: { name: 'employeeName', role: 'employeeRole', stores: 'employeeStores', pin: 'employeePin' },
};

export interface EmployeeDraft {
  name: string;
  role: Role;
  stores: string[];
}

export function EmployeeFields({
  draft,
  onChange,
  stores,
}: {
  draft: EmployeeDraft;
  onChange: (draft: EmployeeDraft) => void;
  stores: Store[];
}) {
  const { t } = useI18n();
  const toggle = (id: string, on: boolean) =>
    onChange({ ...draft, stores: on ? [...draft.stores, id] : draft.stores.filter((store) => store !== id) });
  return (
    <>
      <div className="form-row">
        <label>
          {t('employeeName')}
          <input
            value={draft.name}
            required
            maxLength={100}
            onChange={(event) => onChange({ ...draft, name: event.target.value })}
            data-testid="employee-name"
          />
        </label>
        <SelectField<Role>
          label={t('employeeRole')}
          value={draft.role}
          onChange={(role) => onChange({ ...draft, role })}
          options={[
            ['cashier', t('roleCashier')],
            ['manager', t('roleManager')],
          ]}
          testId="employee-role"
        />
      </div>
      {stores.length > 1 && (
        <fieldset className="stack">
          <legend className="strong">{t('employeeStores')}</legend>
          <div className="checks">
            {stores.map((store) => (
              <label key={store.id}>
                <input
                  type="checkbox"
                  checked={draft.stores.includes(store.id)}
                  onChange={(event) => toggle(store.id, event.target.checked)}
                />
                {store.name}
              </label>
            ))}
          </div>
        </fieldset>
      )}
    </>
  );
}

/** A PIN field: 4 to 6 digits (6 for a manager), typed hidden, never shown back. */
export function PinField({
  value,
  onChange,
  role,
  required = true,
}: {
  value: string;
  onChange: (pin: string) => void;
  role: Role;
  required?: boolean;
}) {
  const { t } = useI18n();
  return (
    <label>
      {t(role === 'manager' ? 'pinManager' : 'pinCashier')}
      <input
        type="password"
        inputMode="numeric"
        autoComplete="off"
        required={required}
        pattern={role === 'manager' ? '[0-9]{6}' : '[0-9]{4,6}'}
        maxLength={6}
        value={value}
        onChange={(event) => onChange(event.target.value.replace(/\D/g, ''))}
        data-testid="employee-pin"
      />
    </label>
  );
}
