import { useState, type FormEvent } from 'react';
import { useDashboard } from '../store/StoreContext';
import { useSessionActions } from './ControlsContext';
import { FormErrors, NumberField } from './Field';
import { CLIENT_FIELDS, clientFormOf, type ClientFormValues } from './formModel';

/** the client's settings (SPEC §7), validated through the one resolver before they reach the session */
export function ClientConfigForm() {
  const config = useDashboard((s) => s.clientConfig);
  const issues = useDashboard((s) => s.formErrors.client);
  const actions = useSessionActions();
  const [values, setValues] = useState<ClientFormValues>(() => clientFormOf(config));
  const [seen, setSeen] = useState(config);
  if (seen !== config) {
    // a new session or an applied change: show what is in effect
    setSeen(config);
    setValues(clientFormOf(config));
  }
  const bad = new Set(issues.map((i) => i.path));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void actions.applyClient(values);
  };
  return (
    <form className="side-section" onSubmit={submit} aria-label="Client configuration" noValidate>
      <h3>Client configuration</h3>
      <div className="fields">
        {CLIENT_FIELDS.map((f) => (
          <NumberField
            key={f.key}
            id={`client-${f.key}`}
            label={f.label}
            allowed={f.allowed}
            {...('unit' in f ? { unit: f.unit } : {})}
            value={f.key === 'operationTimeoutMs' && values.infinite ? 'infinite' : values[f.key]}
            disabled={f.key === 'operationTimeoutMs' && values.infinite}
            invalid={bad.has(f.key)}
            onChange={(v) => setValues({ ...values, [f.key]: v })}
          />
        ))}
      </div>
      <div className="checks">
        <label>
          <input type="checkbox" checked={values.infinite} onChange={(e) => setValues({ ...values, infinite: e.target.checked })} /> Infinite deadline (none)
        </label>
        <label>
          <input type="checkbox" checked={values.disableRetries} onChange={(e) => setValues({ ...values, disableRetries: e.target.checked })} /> Disable retries (one attempt)
        </label>
      </div>
      <FormErrors issues={issues} what="Client configuration" />
      <div className="form-actions">
        <button type="submit" className="btn primary">
          Apply client config
        </button>
        <button type="button" className="btn ghost" onClick={() => setValues(clientFormOf(config))}>
          Reset
        </button>
      </div>
    </form>
  );
}
