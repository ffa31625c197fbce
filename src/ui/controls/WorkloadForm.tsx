import { useState, type FormEvent } from 'react';
import { MIX_KINDS } from '../../core/sim/workloadConfig';
import { useDashboard } from '../store/StoreContext';
import { useSessionActions } from './ControlsContext';
import { FormErrors, NumberField } from './Field';
import { MIX_ALLOWED, WORKLOAD_FIELDS, workloadFormOf, type WorkloadFormValues } from './formModel';

/** what drives the client: closed-loop users and/or an open-loop rate, keys, mix */
export function WorkloadForm() {
  const workload = useDashboard((s) => s.workload);
  const issues = useDashboard((s) => s.formErrors.workload);
  const actions = useSessionActions();
  const [values, setValues] = useState<WorkloadFormValues>(() => workloadFormOf(workload));
  const [seen, setSeen] = useState(workload);
  if (seen !== workload) {
    setSeen(workload);
    setValues(workloadFormOf(workload));
  }
  const bad = new Set(issues.map((i) => i.path));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void actions.applyWorkload(values);
  };
  return (
    <form className="side-section" onSubmit={submit} aria-label="Workload" noValidate>
      <h3>Workload</h3>
      <div className="fields">
        {WORKLOAD_FIELDS.map((f) => (
          <NumberField
            key={f.key}
            id={`wl-${f.key}`}
            label={f.label}
            allowed={f.allowed}
            {...('unit' in f ? { unit: f.unit } : {})}
            value={values[f.key]}
            invalid={bad.has(f.key)}
            onChange={(v) => setValues({ ...values, [f.key]: v })}
          />
        ))}
        <div className="field">
          <label htmlFor="wl-distribution">Key distribution</label>
          <select id="wl-distribution" value={values.distribution} onChange={(e) => setValues({ ...values, distribution: e.target.value === 'zipf' ? 'zipf' : 'uniform' })}>
            <option value="uniform">uniform</option>
            <option value="zipf">zipf</option>
          </select>
          <small className="allowed">uniform or zipf</small>
        </div>
      </div>
      <h4>Operation mix (weights)</h4>
      <div className="fields mix">
        {MIX_KINDS.map((k) => (
          <NumberField
            key={k}
            id={`wl-mix-${k}`}
            label={k}
            allowed={MIX_ALLOWED}
            value={values[`mix.${k}`]}
            invalid={bad.has(`mix.${k}`)}
            onChange={(v) => setValues({ ...values, [`mix.${k}`]: v })}
          />
        ))}
      </div>
      <FormErrors issues={issues} what="Workload" />
      <div className="form-actions">
        <button type="submit" className="btn primary">
          Apply workload
        </button>
        <button type="button" className="btn ghost" onClick={() => setValues(workloadFormOf(workload))}>
          Reset
        </button>
      </div>
    </form>
  );
}
