/** The delta metrics (A, B, B − A, which is better) and the invariant verdicts side by side. */
import type { InvariantVerdict, MetricDelta, RunComparison } from '../../core/replay/compare';
import { formatNumber } from '../panels/chart/format';

function fmt(m: MetricDelta, v: number | null): string {
  if (v === null) return '—';
  if (m.unit === 'ms') return Math.abs(v) >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${formatNumber(v)} ms`;
  if (m.unit === '×') return `${v.toFixed(2)}×`;
  return formatNumber(v);
}

/** which side the metric favours: 'a', 'b' or null (equal / not applicable) */
export function winner(m: MetricDelta): 'a' | 'b' | null {
  if (m.a === null || m.b === null || m.a === m.b) return null;
  const bHigher = m.b > m.a;
  return (m.better === 'higher') === bHigher ? 'b' : 'a';
}

export function DeltaTable({ comparison, labelA, labelB }: { comparison: RunComparison; labelA: string; labelB: string }) {
  const w = comparison.faultWindow;
  return (
    <table className="delta" aria-label="Delta metrics" data-testid="compare-metrics">
      <thead>
        <tr>
          <th>metric</th>
          <th className="side-a">A · {labelA}</th>
          <th className="side-b">B · {labelB}</th>
          <th>B − A</th>
        </tr>
      </thead>
      <tbody>
        {comparison.metrics.map((m) => {
          const win = winner(m);
          const sign = m.delta !== null && m.delta > 0 ? '+' : '';
          return (
            <tr key={m.id} data-testid={`compare-metric-${m.id}`} data-a={m.a ?? ''} data-b={m.b ?? ''}>
              <th scope="row">
                {m.label}
                {m.id === 'opsPerSecondInFaultWindow' && w ? <small> ({(w.fromMs / 1000).toFixed(1)}–{(w.toMs / 1000).toFixed(1)} s)</small> : null}
                <small className="better">{m.better} is better</small>
              </th>
              <td className={`num ${win === 'a' ? 'win' : win === 'b' ? 'lose' : ''}`}>{fmt(m, m.a)}</td>
              <td className={`num ${win === 'b' ? 'win' : win === 'a' ? 'lose' : ''}`}>{fmt(m, m.b)}</td>
              <td className="num delta-cell">{m.delta === null ? '—' : `${sign}${fmt(m, m.delta)}`}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

const VERDICT: Readonly<Record<InvariantVerdict, { label: string; className: string }>> = {
  ok: { label: 'kept', className: 'badge ok' },
  expected: { label: 'violated — bug toggle on', className: 'badge expected' },
  violated: { label: 'VIOLATED', className: 'badge bad' },
};

export function InvariantTable({ comparison }: { comparison: RunComparison }) {
  const cell = (v: InvariantVerdict | null, n: number) =>
    v === null ? (
      <span className="badge muted">not checked</span>
    ) : (
      <span className={VERDICT[v].className}>
        {VERDICT[v].label}
        {n > 0 ? ` · ${formatNumber(n)}×` : ''}
      </span>
    );
  return (
    <table className="delta verdicts" aria-label="Invariant verdicts" data-testid="compare-invariants">
      <thead>
        <tr>
          <th>invariant</th>
          <th className="side-a">A</th>
          <th className="side-b">B</th>
        </tr>
      </thead>
      <tbody>
        {comparison.invariants.map((i) => (
          <tr key={i.name} data-testid={`compare-inv-${i.name}`} data-a={i.a ?? ''} data-b={i.b ?? ''}>
            <th scope="row">{i.name}</th>
            <td>{cell(i.a, i.violationsA)}</td>
            <td>{cell(i.b, i.violationsB)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
