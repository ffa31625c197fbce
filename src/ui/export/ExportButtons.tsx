/** A small group of export buttons; each runs an async export and shows failures inline. */
import { useState } from 'react';

export interface ExportAction {
  readonly label: string;
  readonly title: string;
  readonly run: () => Promise<void>;
  readonly testId?: string;
}

export function ExportButtons({ actions, label = 'Export' }: { actions: readonly ExportAction[]; label?: string }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (a: ExportAction) => {
    setBusy(a.label);
    setError(null);
    try {
      await a.run();
    } catch (e) {
      setError(`${a.label} export failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="export-buttons" role="group" aria-label={label} data-export-skip="true">
      {actions.map((a) => (
        <button key={a.label} type="button" className="btn small" title={a.title} disabled={busy !== null} onClick={() => void run(a)} data-testid={a.testId}>
          {busy === a.label ? '…' : a.label}
        </button>
      ))}
      {error ? (
        <span className="export-error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
