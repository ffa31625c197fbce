/** Small form pieces shared by the control forms. */
import { useEffect, useRef } from 'react';
import type { InputIssue } from '../../core/validation';
import { describeIssue } from './formModel';

export interface NumberFieldProps {
  readonly id: string;
  readonly label: string;
  readonly unit?: string;
  /** allowed values, shown under the input */
  readonly allowed: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly invalid?: boolean;
  readonly disabled?: boolean;
}

export function NumberField({ id, label, unit, allowed, value, onChange, invalid, disabled }: NumberFieldProps) {
  return (
    <div className={`field ${invalid ? 'invalid' : ''}`}>
      <label htmlFor={id}>
        {label}
        {unit ? <span className="unit"> ({unit})</span> : null}
      </label>
      <input
        id={id}
        type="text"
        inputMode="decimal"
        value={value}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        aria-describedby={`${id}-allowed`}
        onChange={(e) => onChange(e.target.value)}
      />
      <small id={`${id}-allowed`} className="allowed">
        {allowed}
      </small>
    </div>
  );
}

/** refused input: each issue names the field and the allowed values */
export function FormErrors({ issues, what }: { issues: readonly InputIssue[]; what: string }) {
  const box = useRef<HTMLDivElement>(null);
  // the sidebar scrolls on its own: bring a new refusal into view rather than leave it under the fold
  useEffect(() => {
    if (issues.length > 0) box.current?.scrollIntoView({ block: 'nearest' });
  }, [issues]);
  if (issues.length === 0) return null;
  return (
    <div className="form-errors" role="alert" ref={box}>
      <b>{what} refused — the session keeps its previous settings:</b>
      <ul>
        {issues.map((i) => (
          <li key={`${i.path}:${i.message}`}>{describeIssue(i)}</li>
        ))}
      </ul>
    </div>
  );
}
