/**
 * Checking a guest in: the guest register's entry the law asks for (name,
 * nationality, identity document and its country, from where and going
 * where), sent with the check-in itself, so a stay is never in house
 * unregistered.
 */
import { useState } from 'react';
import { ID_DOCUMENT_TYPES, type IdDocumentType } from '@tz/core';
import { api } from '../../api.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { HOSPITALITY_ERRORS, type Reservation } from './model.ts';

const DOCUMENT_WORDS: Record<IdDocumentType, MessageKey> = {
  passport: 'hospIdPassport',
  national_id: 'hospIdNational',
  driving_licence: 'hospIdLicence',
  voter_id: 'hospIdVoter',
  other: 'hospIdOther',
};

export function CheckInDialog({
  stay,
  room,
  onClose,
  onDone,
}: {
  stay: Reservation;
  /** The room chosen on the page, when the stay has none yet. */
  room: string | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const [guest, setGuest] = useState({
    name: stay.guest.name,
    nationality: 'TZ',
    id_type: 'national_id' as IdDocumentType,
    id_number: '',
    id_country: 'TZ',
    arriving_from: '',
    going_to: '',
  });
  const set = (field: keyof typeof guest) => (value: string) =>
    setGuest((now) => ({ ...now, [field]: value }));
  return (
    <ConfirmDialog
      title={t('hospCheckInTitle', { name: stay.guest.name })}
      lead={t('hospCheckInLead')}
      confirm={t('hospCheckIn')}
      kind="primary"
      words={HOSPITALITY_ERRORS}
      testId="check-in-dialog"
      confirmTestId="check-in-confirm"
      onClose={onClose}
      onConfirm={async () => {
        await api.post(`/v1/hospitality/reservations/${stay.id}/check_in`, {
          ...(room ? { room } : {}),
          guests: [guest],
        });
        onDone();
      }}
    >
      <div className="hosp-form">
        <TextField label={t('hospGuestName')} value={guest.name} onChange={set('name')} testId="guest-name" />
        <TextField
          label={t('hospNationality')}
          value={guest.nationality}
          onChange={set('nationality')}
          testId="guest-nationality"
          maxLength={2}
        />
        <SelectField
          label={t('hospIdType')}
          value={guest.id_type}
          onChange={set('id_type')}
          options={ID_DOCUMENT_TYPES.map((type) => [type, t(DOCUMENT_WORDS[type])] as const)}
          testId="guest-id-type"
        />
        <TextField
          label={t('hospIdNumber')}
          value={guest.id_number}
          onChange={set('id_number')}
          testId="guest-id-number"
        />
        <TextField
          label={t('hospIdCountry')}
          value={guest.id_country}
          onChange={set('id_country')}
          testId="guest-id-country"
          maxLength={2}
        />
        <TextField
          label={t('hospComingFrom')}
          value={guest.arriving_from}
          onChange={set('arriving_from')}
          testId="guest-from"
        />
        <TextField
          label={t('hospGoingTo')}
          value={guest.going_to}
          onChange={set('going_to')}
          testId="guest-to"
        />
      </div>
    </ConfirmDialog>
  );
}
