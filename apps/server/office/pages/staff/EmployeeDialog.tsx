/** Editing an employee: the name, role and stores, or a new PIN (which replaces the old one on every till at its next sync). */
import { useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { OfficeDialog } from '../../components/OfficeDialog.tsx';
import { useI18n } from '../../i18n/index.ts';
import { Message } from '../../shared.ts';
import type { Store } from '../Tills.tsx';
import { EMPLOYEE_WORDS, EmployeeFields, PinField, type Employee } from './EmployeeFields.tsx';

export function EmployeeDialog({
  employee,
  part,
  stores,
  onClose,
  onSaved,
}: {
  employee: Employee;
  part: 'details' | 'pin';
  stores: Store[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useI18n();
  const [draft, setDraft] = useState({ name: employee.name, role: employee.role, stores: employee.stores });
  const [pin, setPin] = useState('');
  const { busy, error, run } = useAction(EMPLOYEE_WORDS);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api.patch(
        `/v1/employees/${employee.id}`,
        part === 'pin' ? { pin } : { ...draft, name: draft.name.trim(), ...(pin ? { pin } : {}) },
      );
      onSaved();
    });
  };
  // Making a cashier a manager may need a 6-digit PIN: the field is there when the role changes.
  const roleChanged = part === 'details' && draft.role !== employee.role;
  return (
    <OfficeDialog
      title={t(part === 'pin' ? 'employeePinTitle' : 'employeeEditTitle', { name: employee.name })}
      onClose={onClose}
      testId="employee-dialog"
    >
      <form className="stack" onSubmit={submit}>
        {part === 'details' && <EmployeeFields draft={draft} onChange={setDraft} stores={stores} />}
        {part === 'pin' && <p>{t('pinLead')}</p>}
        {(part === 'pin' || (roleChanged && draft.role === 'manager')) && (
          <PinField value={pin} onChange={setPin} role={draft.role} required={part === 'pin'} />
        )}
        <Message text={error} />
        <div className="row">
          <button type="submit" className="primary" disabled={busy} data-testid="save-employee">
            {t('save')}
          </button>
          <button type="button" onClick={onClose}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </OfficeDialog>
  );
}
