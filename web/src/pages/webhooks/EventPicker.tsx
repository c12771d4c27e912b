import { useId } from 'react';
import { ALL_EVENTS, eventGroups, offeredPatterns, parsePatternList, patternMatches } from './events';

/**
 * The events an endpoint receives: checkboxes for the emitted names and patterns and the
 * project's recorded names, plus a box for names not seen yet (`order.paid`, `order.*`). A name
 * covered by a checked pattern (`email.open` under `email.*`) shows as checked and cannot be
 * unticked on its own. Controlled: `value` is the `events` list sent to the API.
 */
export function EventPicker({ value, onChange, projectNames, error }: { value: string[]; onChange: (events: string[]) => void; projectNames: readonly string[]; error?: string }) {
  const id = useId();
  const groups = eventGroups(projectNames);
  const offered = offeredPatterns(groups);
  const typed = value.filter((v) => !offered.has(v));
  const checked = value.filter((v) => offered.has(v));
  const coveredBy = (choice: string) => value.find((p) => p !== choice && p.endsWith('*') && patternMatches(p, choice.endsWith('.*') ? choice.slice(0, -1) : choice));
  const toggle = (choice: string, on: boolean) => onChange(on ? [...checked.filter((v) => v !== choice), choice, ...typed] : value.filter((v) => v !== choice));
  const describedBy = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <fieldset className={error ? 'event-picker field-invalid' : 'event-picker'} aria-describedby={describedBy} aria-invalid={error ? true : undefined}>
      <legend>Events to send</legend>
      <p className="field-hint" id={`${id}-hint`}>
        Pick what this endpoint hears about. Emails, contacts and segments are recorded by Mailroom; your tracked events come from POST /v1/track.
      </p>
      <div className="event-groups">
        {groups.map((group) => (
          <fieldset key={group.title} className="event-group">
            <legend>{group.title}</legend>
            {group.choices.length === 0 ? (
              <p className="muted">None tracked yet: type their names below.</p>
            ) : (
              group.choices.map((choice) => {
                const cover = coveredBy(choice.value);
                const isChecked = Boolean(cover) || value.includes(choice.value);
                return (
                  <div key={choice.value} className="field field-check">
                    <input
                      id={`${id}-${choice.value}`}
                      type="checkbox"
                      checked={isChecked}
                      disabled={Boolean(cover)}
                      onChange={(e) => toggle(choice.value, e.target.checked)}
                    />
                    <label htmlFor={`${id}-${choice.value}`}>
                      {choice.label} <code className="muted">{choice.value}</code>
                      {cover && <span className="visually-hidden"> (included by {cover === ALL_EVENTS ? 'all events' : cover})</span>}
                    </label>
                  </div>
                );
              })
            )}
          </fieldset>
        ))}
      </div>
      <div className="field">
        <label htmlFor={`${id}-other`}>Other event names or patterns</label>
        <input
          id={`${id}-other`}
          defaultValue={typed.join(', ')}
          placeholder="order.paid, order.*"
          aria-describedby={`${id}-other-hint`}
          onChange={(e) => onChange([...checked, ...parsePatternList(e.target.value).filter((p) => !checked.includes(p))])}
        />
        <p className="field-hint" id={`${id}-other-hint`}>
          Separate them with commas. A name ending in <code>.*</code> covers every name that starts the same way.
        </p>
      </div>
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
