/**
 * Room types: the list, a new one at `/office/hospitality/room-types/new`, and
 * each at `/office/hospitality/room-types/<id>` with its form, its rates and
 * its booking mode.
 */
import { api } from '../../api.ts';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { RowTable } from '../../components/DataTable.tsx';
import { Failed, Loading } from '../../components/Status.tsx';
import { useI18n } from '../../i18n/index.ts';
import { useLoad } from '../../load.ts';
import { PageLink } from '../../router.tsx';
import { formatMoney } from '../../shared.ts';
import { CONFIRMATION_WORDS, MODE_WORDS, type RoomType } from './model.ts';
import { Rates, RoomTypeMode } from './Rates.tsx';
import { RoomTypeForm } from './RoomTypeForm.tsx';

export function RoomTypes({ id }: { id: string | undefined }) {
  if (id === 'new') return <RoomTypeForm roomType={null} onSaved={() => undefined} />;
  if (id) return <RoomTypeById id={id} />;
  return <RoomTypeList />;
}

function RoomTypeById({ id }: { id: string }) {
  const [loaded, reload] = useLoad(
    () => api.get<RoomType>(`/v1/hospitality/room-types/${encodeURIComponent(id)}`),
    id,
  );
  if (loaded.kind === 'loading') return <Loading />;
  if (loaded.kind === 'failed') return <Failed error={loaded.error} onRetry={reload} />;
  const roomType = loaded.value;
  return (
    <>
      <RoomTypeForm key={roomType.id} roomType={roomType} onSaved={reload} />
      {!roomType.archived && (
        <>
          <Rates roomType={roomType} onChanged={reload} />
          <RoomTypeMode roomType={roomType} onChanged={reload} />
        </>
      )}
    </>
  );
}

function RoomTypeList() {
  const { t } = useI18n();
  const list = useCursorList<RoomType>('/v1/hospitality/room-types');
  return (
    <>
      <div className="row">
        <PageLink
          page="hospitality"
          rest={['room-types', 'new']}
          className="button primary"
          data-testid="new-room-type"
        >
          {t('hospNewRoomType')}
        </PageLink>
      </div>
      <CursorListView list={list} empty={t('hospNoRoomTypes')}>
        {(rows) => (
          <RowTable
            rows={rows}
            testId="room-type-list"
            rowTestId="room-type"
            caption={t('hospTabRoomTypes')}
            columns={[
              {
                label: t('hospName'),
                cell: (type) => (
                  <PageLink page="hospitality" rest={['room-types', type.id]}>
                    {type.name}
                  </PageLink>
                ),
              },
              { label: t('hospTabRooms'), cell: (type) => type.rooms, num: true },
              {
                label: t('hospBaseRate'),
                cell: (type) => formatMoney(type.base_rate, 'TZS'),
                num: true,
                nowrap: true,
              },
              { label: t('hospRates'), cell: (type) => type.rates.length, num: true },
              {
                label: t('hospGuests'),
                cell: (type) => t('hospParty', { adults: type.max_adults, children: type.max_children }),
              },
              {
                label: t('hospBookingMode'),
                cell: (type) =>
                  [
                    type.booking_mode ? t(MODE_WORDS[type.booking_mode]) : t('hospAsProperty'),
                    type.confirmation ? t(CONFIRMATION_WORDS[type.confirmation]) : null,
                  ]
                    .filter(Boolean)
                    .join(' · '),
              },
            ]}
          />
        )}
      </CursorListView>
    </>
  );
}
