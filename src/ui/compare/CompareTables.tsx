/** The delta table (service first; A, B, B − A, the better side coloured) and the invariant verdicts side by side. */
import type { InvariantVerdict, RunComparison } from '../../core/replay/compare';
import { formatNumber } from '../panels/chart/format';
import { invariantLabel } from '../store/logSelectors';
import { deltaSections } from './deltaRows';

const cellClass = (win: 'a' | 'b' | null, side: 'a' | 'b'): string => `num ${win === side ? 'win' : win !== null ? 'lose' : ''}`;

export function DeltaTable({ comparison, labelA, labelB }: { comparison: RunComparison; labelA: string; labelB: string }) {
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
      {deltaSections(comparison).map((s) => (
        <tbody key={s.group} data-testid={`compare-group-${s.group.replace(/\s+/g, '-')}`}>
          <tr className="group-row">
            <th colSpan={4} scope="rowgroup">
              {s.group}
            </th>
          </tr>
          {s.rows.flatMap((r) => [
            <tr key={r.id} data-testid={`compare-metric-${r.id}`} data-a={r.rawA ?? ''} data-b={r.rawB ?? ''} data-win={r.win ?? ''}>
              <th scope="row">
                {r.label}
                {r.window ? <small className="window"> ({r.window})</small> : null}
                <small className="better">{r.direction}</small>
              </th>
              <td className={cellClass(r.win, 'a')}>{r.a}</td>
              <td className={cellClass(r.win, 'b')}>{r.b}</td>
              <td className="num delta-cell">{r.delta}</td>
            </tr>,
            ...r.parts.map((p) => (
              <tr key={`${r.id}-${p.label}`} className="part-row" data-testid={`compare-part-${r.id}-${p.label.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '')}`}>
                <th scope="row">{`of which ${p.label}`}</th>
                <td className="num">{p.a}</td>
                <td className="num">{p.b}</td>
                <td />
              </tr>
            )),
          ])}
        </tbody>
      ))}
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
            <th scope="row" title={i.name}>
              {invariantLabel(i.name)}
            </th>
            <td>{cell(i.a, i.violationsA)}</td>
            <td>{cell(i.b, i.violationsB)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
