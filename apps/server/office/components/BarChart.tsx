/**
 * A bar chart drawn in SVG (no chart library): one bar per value, a few tick
 * labels under it, and the same numbers as a table for screen readers.
 */
import { useI18n } from '../i18n/index.ts';

export function BarChart({
  title,
  values,
  labels,
  format,
  labelHeading,
  testId,
}: {
  title: string;
  values: readonly number[];
  /** One per value: the hour or the day. */
  labels: readonly string[];
  format: (value: number) => string;
  labelHeading: string;
  testId?: string;
}) {
  const { t } = useI18n();
  const max = Math.max(0, ...values);
  const n = values.length;
  // Three or four labels under the bars: the first, the last and evenly between.
  const step = Math.max(1, Math.ceil(n / 3));
  const ticks = labels.map((label, i) => ({ label, i })).filter(({ i }) => i % step === 0 || i === n - 1);
  if (ticks.length > 1 && ticks.at(-1)!.i - ticks.at(-2)!.i <= step / 2) ticks.splice(-2, 1);
  const peak = values.indexOf(max);
  const summary =
    max > 0 ? t('chartPeak', { label: labels[peak] ?? '', amount: format(max) }) : t('chartEmpty');
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>
        <strong>{title}</strong>
        <span className="muted">{summary}</span>
      </figcaption>
      <div className="chart-plot" aria-hidden="true">
        <svg viewBox={`0 0 ${n * 10} 100`} preserveAspectRatio="none">
          <line x1="0" y1="100" x2={n * 10} y2="100" className="chart-axis" />
          {values.map((value, i) => {
            const height = max > 0 ? Math.max(value > 0 ? 1.5 : 0, (value / max) * 96) : 0;
            return (
              <rect key={i} x={i * 10 + 1.5} y={100 - height} width={7} height={height} className="chart-bar">
                <title>{`${labels[i] ?? ''}: ${format(value)}`}</title>
              </rect>
            );
          })}
        </svg>
        <div className="chart-ticks">
          {ticks.map(({ label, i }) => (
            <span key={i} style={{ left: `${((i + 0.5) / n) * 100}%` }}>
              {label}
            </span>
          ))}
        </div>
      </div>
      {/* A table ignores a small height: the box around it is what is hidden. */}
      <div className="sr-only">
        <table>
          <caption>{t('chartTable', { title })}</caption>
          <thead>
            <tr>
              <th scope="col">{labelHeading}</th>
              <th scope="col">{t('amount')}</th>
            </tr>
          </thead>
          <tbody>
            {values.map((value, i) => (
              <tr key={i}>
                <th scope="row">{labels[i]}</th>
                <td>{format(value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
