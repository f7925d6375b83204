import { useId } from "react";

export type Bar = { label: string; value: number; display?: string };

const ROW = 28;
const LABEL_WIDTH = 170;
const BAR_AREA = 260;
const VALUE_WIDTH = 70;

/**
 * A horizontal bar chart as an accessible SVG: role="img", named by its <title> and described by its
 * <desc> (which lists every value), each bar labelled in text with its number written beside it, so
 * nothing is told by colour alone. One dark colour on white (contrast well above 3:1 for the bars and
 * 4.5:1 for the text). The same numbers are in the table next to it, which is what screen readers and
 * copy-paste should use.
 */
export function BarChart({ title, bars, max }: { title: string; bars: readonly Bar[]; max?: number }) {
  const id = useId();
  const top = Math.max(max ?? 0, ...bars.map((b) => b.value), 1);
  const height = Math.max(bars.length, 1) * ROW + 8;
  const width = LABEL_WIDTH + BAR_AREA + VALUE_WIDTH;
  const desc = bars.length === 0 ? "No data in this range." : bars.map((b) => `${b.label}: ${b.display ?? b.value}`).join("; ");
  return (
    <svg role="img" aria-labelledby={`${id}-title ${id}-desc`} viewBox={`0 0 ${width} ${height}`} className="h-auto w-full max-w-xl" data-testid="report-chart">
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{desc}</desc>
      {bars.map((bar, i) => {
        const y = 4 + i * ROW;
        const w = bar.value > 0 ? Math.max(2, Math.round((bar.value / top) * BAR_AREA)) : 0;
        return (
          <g key={bar.label}>
            <text x={LABEL_WIDTH - 8} y={y + ROW / 2} textAnchor="end" dominantBaseline="middle" className="fill-slate-800 text-[12px]">
              {bar.label.length > 26 ? `${bar.label.slice(0, 25)}…` : bar.label}
            </text>
            <rect x={LABEL_WIDTH} y={y + 4} width={w} height={ROW - 8} rx={3} className="fill-primary" />
            <text x={LABEL_WIDTH + w + 6} y={y + ROW / 2} dominantBaseline="middle" className="fill-slate-900 text-[12px] font-semibold">
              {bar.display ?? bar.value}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
