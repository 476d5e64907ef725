/** A webhook endpoint's fields, for a new one and for editing: its URL, description and the events it receives (all, or those ticked). */
import { useState, type FormEvent, type ReactNode } from 'react';
import { TextField } from '../../components/TextField.tsx';
import { useI18n } from '../../i18n/index.ts';
import { Segmented } from '../../shared.ts';
import { useEventTypes } from './event-types.ts';

export interface EndpointFields {
  url: string;
  description: string;
  events: string[];
}

export function EndpointForm({
  initial,
  idPrefix,
  onSubmit,
  children,
}: {
  initial: EndpointFields;
  /** Keeps the ids of two forms on one page apart. */
  idPrefix: string;
  onSubmit: (fields: EndpointFields) => void;
  /** The submit button and the form's message. */
  children: ReactNode;
}) {
  const { t } = useI18n();
  const types = useEventTypes();
  const [url, setUrl] = useState(initial.url);
  const [description, setDescription] = useState(initial.description);
  const [all, setAll] = useState(initial.events.includes('*'));
  const [chosen, setChosen] = useState(() => new Set(initial.events.filter((type) => type !== '*')));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ url: url.trim(), description: description.trim(), events: all ? ['*'] : [...chosen] });
  };
  const toggle = (type: string, on: boolean) =>
    setChosen((old) => {
      const next = new Set(old);
      if (on) next.add(type);
      else next.delete(type);
      return next;
    });
  return (
    <form className="stack" onSubmit={submit}>
      <div className="form-row">
        <TextField
          label={t('endpointUrl')}
          value={url}
          onChange={setUrl}
          type="url"
          required
          maxLength={2048}
          placeholder="https://example.co.tz/webhooks"
          testId="endpoint-url"
        />
        <TextField
          label={t('endpointDescription')}
          value={description}
          onChange={setDescription}
          maxLength={500}
          testId="endpoint-description"
        />
      </div>
      <fieldset className="stack" aria-describedby={`${idPrefix}-events-lead`}>
        <legend className="strong">{t('endpointEvents')}</legend>
        <Segmented<boolean>
          label={t('endpointEvents')}
          value={all}
          onChange={setAll}
          options={[
            [true, t('endpointAllEvents')],
            [false, t('endpointSomeEvents')],
          ]}
        />
        <p id={`${idPrefix}-events-lead`} className="muted small">
          {all ? t('endpointAllLead') : t('endpointSomeLead', { count: chosen.size })}
        </p>
        {!all && (
          <div className="checks" data-testid="event-choices">
            {types.map((type) => (
              <label key={type}>
                <input
                  type="checkbox"
                  checked={chosen.has(type)}
                  onChange={(event) => toggle(type, event.target.checked)}
                />
                <span className="code">{type}</span>
              </label>
            ))}
          </div>
        )}
      </fieldset>
      {children}
    </form>
  );
}
