import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PULL_DOCUMENTS, matchTillPin, newId } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { printJobDocument } from '../../apps/server/src/tills/print-jobs.ts';
import { printerDocument } from '../../apps/server/src/tills/printers.ts';
import { shiftDocument } from '../../apps/server/src/tills/shifts.ts';
import { client, signUp, startTestServer } from '../support/server.ts';
import { inTransaction, makeEmployee, pairedTill, pullCollection } from '../support/tills.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const row = async (table: string, id: string) =>
  (await server.database.pool.query(`SELECT * FROM ${table} WHERE id = $1`, [id])).rows[0];

describe('documents tills pull', () => {
  it('match the sync protocol’s schemas, the employee’s carrying a PIN verifier the till can check', async () => {
    const api = client(server.url, (await signUp(server.url)).keys.secretTest);
    const { till, actor } = await pairedTill(server, api);
    const employee = await makeEmployee(api, [till.store], { pin: '8642' });
    const printer = (await api.post('/v1/printers', { till: till.id, name: 'P', connection: 'usb' })).body;
    const job = (await api.post('/v1/print', { printer: printer.id, text: 'Habari' })).body;
    const shift = newId('shift');
    await inTransaction(server, (tx) =>
      server.services.shifts.open(tx, actor, {
        shift,
        cashier: employee.id,
        opening_float: 1_000,
        opened_at: 1_764_115_200,
      }),
    );

    const pulled = await pullCollection(server, actor, 'employees', (docs) =>
      docs.some((doc) => doc.id === employee.id),
    );
    const employeeDoc = PULL_DOCUMENTS.employees.parse(pulled.find((doc) => doc.id === employee.id));
    expect(employeeDoc).toMatchObject({ id: employee.id, role: 'cashier', _deleted: false });
    expect(await matchTillPin('8642', [employeeDoc.pin])).toBe(0);
    expect(PULL_DOCUMENTS.printers.parse(printerDocument(await row('printers', printer.id)))).toMatchObject({
      till: till.id,
      connection: 'usb',
      _deleted: false,
    });
    expect(PULL_DOCUMENTS.print_jobs.parse(printJobDocument(await row('print_jobs', job.id)))).toMatchObject({
      printer: printer.id,
      status: 'pending',
      text: 'Habari',
    });
    expect(PULL_DOCUMENTS.shifts.parse(shiftDocument(await row('shifts', shift)))).toMatchObject({
      till: till.id,
      status: 'open',
      opening_float: 1_000,
      opened_at: 1_764_115_200,
    });
    await api.delete(`/v1/printers/${printer.id}`);
    expect(printerDocument(await row('printers', printer.id))._deleted).toBe(true);
  });
});
