/**
 * The door (a till with a ticketed event pulled): each ticket scanned (the
 * scanner's keyboard wedge, the camera where there is one, or a code typed
 * with F2) gets its verdict big and coloured, with a mark, a word and a
 * sound; the door goes on scanning whatever the verdict. Beside it: the
 * counts, and the tickets the server found admitted twice.
 */
import { useCallback, useRef, useState } from 'react';
import type { DoorScan, DoorView } from '../../../data/api.ts';
import { formatCount, formatDateTime, formatTime, useI18n } from '../../../i18n/index.tsx';
import type { MessageKey } from '../../../i18n/en.ts';
import { useShortcuts } from '../../keyboard/shortcuts.ts';
import { useScanner } from '../../keyboard/use-scanner.ts';
import { useNotify } from '../../notices.tsx';
import { refusalText } from '../../refusal.ts';
import { useObservable, useStore } from '../../store.tsx';
import { playVerdict } from './door-sound.ts';
import { hasDoorCamera, useDoorCamera } from './use-door-camera.ts';

/** A ticket's code as printed: base64url, long (66 characters from a box office). A scan of anything else still gets its verdict. */
const looksLikeTicket = (code: string) => /^[A-Za-z0-9_-]{60,}$/.test(code);

const MARKS: Record<DoorScan['verdict'], string> = {
  ok: '✓',
  already_redeemed: '⚠',
  invalid: '✕',
  unpaid: '✕',
  canceled: '✕',
  wrong_event: '✕',
  not_yet_valid: '⏱',
};

export function DoorScreen({ blocked, onBoxOffice }: { blocked: boolean; onBoxOffice: () => void }) {
  const store = useStore();
  const { t, language } = useI18n();
  const notify = useNotify();
  const view = useObservable<DoorView | null>(store.door$, null);
  const [result, setResult] = useState<DoorScan | null>(null);
  const [typed, setTyped] = useState('');
  const [camera, setCamera] = useState(false);
  const codeField = useRef<HTMLInputElement>(null);
  const eventField = useRef<HTMLSelectElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  // Scans run side by side; the newest one's verdict is the one on screen.
  const started = useRef(0);
  const shown = useRef(0);

  const scan = useCallback(
    (code: string) => {
      const mine = ++started.current;
      store.scanAtDoor(code).then(
        (scanned) => {
          if (mine < shown.current) return;
          shown.current = mine;
          setResult(scanned);
          playVerdict(scanned.verdict === 'ok');
        },
        (error: unknown) => notify(refusalText(language, error), 'error'),
      );
    },
    [store, notify, language],
  );
  useScanner(scan, { active: !blocked && view?.event != null, known: looksLikeTicket });
  const cameraOn = camera && !blocked && view?.event != null;
  useDoorCamera(video, cameraOn, scan, () => {
    setCamera(false);
    notify(t('doorCameraFailed'), 'error');
  });
  const withCamera = hasDoorCamera();
  useShortcuts('door', !blocked && view !== null, () => ({}), {
    doorCode: () => codeField.current?.focus(),
    doorCamera: () => withCamera && setCamera((on) => !on),
    doorEvent: () => eventField.current?.focus(),
    boxOffice: onBoxOffice,
  });
  if (!view) return <div className="splash">{t('doorTab')}</div>;

  const submit = () => {
    if (typed.trim() === '') return;
    scan(typed);
    setTyped('');
  };
  const chooser = (
    <div className="door-event-choice">
      <label htmlFor="door-event">{t('doorEvent')}</label>
      <select
        id="door-event"
        ref={eventField}
        value={view.event?.id ?? ''}
        onChange={(e) => void store.chooseDoorEvent(e.target.value)}
        data-testid="door-event"
      >
        {view.event === null && <option value="">{t('doorChooseEvent')}</option>}
        {view.events.map((event) => (
          <option key={event.id} value={event.id}>
            {event.name} · {event.venue}
          </option>
        ))}
      </select>
      <kbd>F4</kbd>
    </div>
  );

  return (
    <div className="door" data-testid="door-screen">
      <section className="door-main">
        <header className="door-head">
          {view.events.length > 1 ? chooser : <h2 data-testid="door-event-name">{view.event?.name}</h2>}
          <small>{t('doorThisDoor', { door: view.door })}</small>
        </header>
        {view.event === null ? (
          <div className="door-verdict idle" data-testid="door-no-event">
            <p>{t('doorChooseEvent')}</p>
            <div className="door-events">
              {view.events.map((event) => (
                <button
                  key={event.id}
                  type="button"
                  onClick={() => void store.chooseDoorEvent(event.id)}
                  data-testid="door-event-choice"
                >
                  <strong>{event.name}</strong>
                  <small>
                    {event.venue} · {formatDateTime(event.startsAt * 1000)}
                  </small>
                </button>
              ))}
            </div>
          </div>
        ) : (
          <Verdict key={result?.scan ?? ''} result={result} />
        )}
        <form
          className="door-code"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <label htmlFor="door-code">{t('doorCodeLabel')}</label>
          <input
            id="door-code"
            ref={codeField}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            disabled={view.event === null}
            data-testid="door-code"
          />
          <button type="submit" disabled={view.event === null} data-testid="door-check">
            {t('doorCheck')} <kbd>F2</kbd>
          </button>
          {withCamera && (
            <button type="button" onClick={() => setCamera((on) => !on)} data-testid="door-camera">
              {camera ? t('doorCameraOff') : t('doorCamera')} <kbd>F3</kbd>
            </button>
          )}
        </form>
        {cameraOn && <video ref={video} className="door-video" muted playsInline />}
      </section>
      <aside className="door-side">
        <dl className="door-counts" data-testid="door-counts">
          <Count label="doorAdmittedHere" value={view.admittedHere} testId="door-admitted-here" />
          <Count label="doorAdmitted" value={view.admitted} testId="door-admitted" />
          <Count label="doorRemaining" value={view.remaining} testId="door-remaining" />
        </dl>
        {view.waiting > 0 && (
          <p className="door-waiting" data-testid="door-waiting">
            {t('doorWaiting', { count: view.waiting })}
          </p>
        )}
        <button type="button" className="door-box-office" onClick={onBoxOffice} data-testid="door-box-office">
          {t('boxOffice')} <kbd>F6</kbd>
        </button>
        {view.doubles.length > 0 && (
          <section className="door-doubles" data-testid="door-doubles" aria-live="polite">
            <h3>⚠ {t('doorDoubles')}</h3>
            <ul>
              {view.doubles.map((double) => (
                <li key={double.id} data-testid="door-double" data-ticket={double.ticket}>
                  {t('doorDouble', {
                    holder: double.holder,
                    firstDoor: double.first.door,
                    firstTime: formatTime(double.first.at * 1000),
                    secondDoor: double.second.door,
                    secondTime: formatTime(double.second.at * 1000),
                  })}
                  <small>{double.ticket}</small>
                </li>
              ))}
            </ul>
          </section>
        )}
      </aside>
    </div>
  );
}

function Count({ label, value, testId }: { label: MessageKey; value: number; testId: string }) {
  const { t } = useI18n();
  return (
    <div>
      <dt>{t(label)}</dt>
      <dd data-testid={testId}>{formatCount(value)}</dd>
    </div>
  );
}

function Verdict({ result }: { result: DoorScan | null }) {
  const { t } = useI18n();
  if (!result)
    return (
      <p className="door-verdict idle" data-testid="door-verdict" data-verdict="">
        {t('doorScanPrompt')}
      </p>
    );
  const tone = result.verdict === 'ok' ? 'yes' : result.verdict === 'already_redeemed' ? 'again' : 'no';
  return (
    <div
      className={`door-verdict ${tone}`}
      role="status"
      aria-live="assertive"
      data-testid="door-verdict"
      data-verdict={result.verdict}
      data-source={result.source}
      data-scan={result.scan}
    >
      <div className="door-word">
        <span className="door-mark" aria-hidden="true">
          {MARKS[result.verdict]}
        </span>
        {t(`verdict_${result.verdict}` as MessageKey)}
      </div>
      {result.holder !== null && (
        <p className="door-holder" data-testid="door-holder">
          {result.holder}
          {result.tier?.name && <span> · {result.tier.name}</span>}
        </p>
      )}
      {result.verdict === 'already_redeemed' && result.checked_in && (
        <p className="door-first" data-testid="door-first">
          {t('doorFirstAdmitted', {
            time: formatTime(result.checked_in.at * 1000),
            door: result.checked_in.door,
          })}
        </p>
      )}
      <small>{result.source === 'server' ? t('doorByServer') : t('doorByDoor')}</small>
    </div>
  );
}
