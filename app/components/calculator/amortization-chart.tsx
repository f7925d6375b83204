import { type YearRow } from "~/domain/loan-math";
import { dollarsOf, formatMoney, sumMoney, type Cents } from "~/domain/money";
import { cn } from "~/utils/cn";

/** Principal navy-700 and interest gold-700: each stands 3:1 or better against the white card. */
const PRINCIPAL_COLOR = "#1e4580";
const INTEREST_COLOR = "#8a6212";

const WIDTH = 640;
const HEIGHT = 260;
const PAD = { top: 12, right: 8, bottom: 36, left: 88 };

/**
 * The axis labels' size in the drawing's units. The drawing is scaled to its width, so on a phone (about
 * 310 px wide: half size) the labels are drawn at 26 units to come out at 12 px or more; from the `sm`
 * breakpoint on, 15 units is enough. The padding above leaves room for "$12.5K" at 26 units.
 */
const AXIS_LABEL = "text-[26px] sm:text-[15px]";

function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 100) : 0;
}

/** The sentence a screen reader hears in place of the picture. */
export function chartSummary(years: YearRow[], principalCents: Cents): string {
  const totalInterest = sumMoney(years.map((y) => y.interestCents));
  const first = years[0];
  const last = years[years.length - 1];
  if (!first || !last) return "No payments to chart.";
  const span = years.length === 1 ? "1 year" : `${years.length} years`;
  let text = `Principal versus interest by year over ${span}: ${formatMoney(principalCents)} of principal and ${formatMoney(totalInterest)} of interest in total.`;
  if (years.length > 1) {
    text += ` Interest is ${percent(first.interestCents, first.paymentCents)}% of the payments in year 1 and ${percent(last.interestCents, last.paymentCents)}% in year ${last.year}.`;
  }
  return `${text} The amortization schedule table lists every figure.`;
}

/** A "nice" axis maximum and step (1, 2 or 5 times a power of ten), about four gridlines. */
function niceScale(max: number): { top: number; step: number } {
  if (!(max > 0)) return { top: 1, step: 1 };
  const rough = max / 4;
  const power = Math.pow(10, Math.floor(Math.log10(rough)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  return { top: Math.ceil(max / step) * step, step };
}

function compactUsd(value: number): string {
  if (value >= 1_000_000) return `$${Number((value / 1_000_000).toFixed(1))}M`;
  if (value >= 1_000) return `$${Number((value / 1_000).toFixed(1))}K`;
  return `$${Math.round(value)}`;
}

/**
 * Stacked bars, one per year: principal repaid (bottom) and interest paid (top). Drawn as one SVG with
 * role="img" and a summarising label; the schedule table beside it is the full text alternative.
 */
export function AmortizationChart({ years, principalCents, className }: { years: YearRow[]; principalCents: Cents; className?: string }) {
  // The axis is drawn in dollars.
  const { top, step } = niceScale(Math.max(...years.map((y) => dollarsOf(y.paymentCents)), 0));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(years.length, 1);
  const barW = Math.max(2, Math.min(48, slot * 0.7));
  const y = (value: number) => PAD.top + plotH - (value / top) * plotH;
  const gridlines: number[] = [];
  for (let v = 0; v <= top + step / 2; v += step) gridlines.push(v);
  // Label every year when there are few; otherwise every 5th (and the first).
  const labelEvery = years.length <= 12 ? 1 : 5;

  return (
    <figure className={cn("flex flex-col gap-3", className)}>
      <svg
        role="img"
        aria-label={chartSummary(years, principalCents)}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-auto w-full max-w-3xl"
        data-testid="amortization-chart"
      >
        {gridlines.map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(v)} y2={y(v)} stroke="#cbd5e1" strokeWidth={1} />
            <text x={PAD.left - 6} y={y(v)} dy="0.32em" textAnchor="end" className={AXIS_LABEL} fill="#475569">
              {compactUsd(v)}
            </text>
          </g>
        ))}
        {years.map((row, i) => {
          const x = PAD.left + i * slot + (slot - barW) / 2;
          const principalTop = y(dollarsOf(row.principalCents));
          const interestTop = y(dollarsOf(row.principalCents + row.interestCents));
          return (
            <g key={row.year}>
              <rect x={x} y={principalTop} width={barW} height={Math.max(0, y(0) - principalTop)} fill={PRINCIPAL_COLOR} />
              <rect
                x={x}
                y={interestTop}
                width={barW}
                height={Math.max(0, principalTop - interestTop)}
                fill={INTEREST_COLOR}
                stroke="#ffffff"
                strokeWidth={barW > 6 ? 1 : 0}
              />
              {i === 0 || row.year % labelEvery === 0 ? (
                <text x={x + barW / 2} y={HEIGHT - PAD.bottom + 26} textAnchor="middle" className={AXIS_LABEL} fill="#475569">
                  {`Y${row.year}`}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm text-muted-foreground">
        <span className="flex items-center gap-2">
          <span aria-hidden="true" className="inline-block size-3 rounded-sm" style={{ background: PRINCIPAL_COLOR }} />
          Principal repaid
        </span>
        <span className="flex items-center gap-2">
          <span aria-hidden="true" className="inline-block size-3 rounded-sm" style={{ background: INTEREST_COLOR }} />
          Interest paid
        </span>
        <span>Y = year of the loan</span>
      </figcaption>
    </figure>
  );
}
