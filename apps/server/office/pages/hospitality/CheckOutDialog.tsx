/**
 * Checking a guest out: the folio must be settled first (the balance taken at
 * the desk in cash), or the guest leaves owing with a reason a manager gives,
 * which the folio keeps. A refusal names what is still owed, and the balance
 * is read again.
 */
import { useState } from 'react';
import { api, ApiError } from '../../api.ts';
import { useAction } from '../../action.ts';
import { OfficeDialog } from '../../components/OfficeDialog.tsx';
import { TextField } from '../../components/TextField.tsx';
import { Loading } from '../../components/Status.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { formatMoney, Message } from '../../shared.ts';
import { HOSPITALITY_ERRORS, type Reservation } from './model.ts';

export function CheckOutDialog({
  stay,
  onClose,
  onDone,
}: {
  stay: Reservation;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const [folio, reload] = useLoad(
    () => api.get<{ balance: number }>(`/v1/hospitality/reservations/${stay.id}/folio`),
    stay.id,
  );
  const { busy, error, run } = useAction(HOSPITALITY_ERRORS);
  const [reason, setReason] = useState('');
  // What a refused check-out said is owed: it counts the nights it would have posted, which the folio
  // shows only once they are.
  const [owedAtCheckOut, setOwedAtCheckOut] = useState<number | null>(null);
  const checkOut = (body: unknown) =>
    run(async () => {
      try {
        await api.post(`/v1/hospitality/reservations/${stay.id}/check_out`, body);
        onDone();
      } catch (error) {
        if (error instanceof ApiError && error.code === 'folio_unsettled')
          setOwedAtCheckOut(Number(error.details.balance ?? 0));
        throw error;
      } finally {
        reload();
      }
    });
  const posted = folio.kind === 'done' ? folio.value.balance : null;
  const balance = posted === null ? null : Math.max(posted, owedAtCheckOut ?? posted);
  return (
    <OfficeDialog
      title={t('hospCheckOutTitle', { name: stay.guest.name })}
      onClose={onClose}
      testId="check-out-dialog"
    >
      <div className="stack">
        {balance === null ? (
          <Loading />
        ) : (
          <p data-testid="folio-balance" data-balance={balance}>
            {t('hospFolioBalance', { amount: formatMoney(balance) })}
          </p>
        )}
        <Message text={error} />
        <div className="row">
          {balance !== null && balance > 0 && (
            <button
              type="button"
              className="primary"
              disabled={busy}
              data-testid="settle-cash"
              onClick={() =>
                void run(async () => {
                  await api.post(`/v1/hospitality/reservations/${stay.id}/folio/payments`, {
                    method: 'cash',
                    amount: balance,
                  });
                  setOwedAtCheckOut(null);
                  reload();
                })
              }
            >
              {t('hospTakeCash', { amount: formatMoney(balance) })}
            </button>
          )}
          <button
            type="button"
            className={balance === 0 ? 'primary' : ''}
            disabled={busy || balance === null}
            data-testid="check-out-confirm"
            onClick={() => void checkOut({})}
          >
            {t('hospCheckOut')}
          </button>
        </div>
        <TextField
          label={t('hospOverrideReason')}
          value={reason}
          onChange={setReason}
          testId="override-reason"
        />
        <div className="row">
          <button
            type="button"
            className="ghost danger"
            disabled={busy || reason.trim() === ''}
            data-testid="check-out-override"
            onClick={() => void checkOut({ override: { reason: reason.trim() } })}
          >
            {t('hospCheckOutOwing')}
          </button>
          <button type="button" onClick={onClose}>
            {t('cancel')}
          </button>
        </div>
      </div>
    </OfficeDialog>
  );
}
