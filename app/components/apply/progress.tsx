import { Check } from "lucide-react";
import { cn } from "~/utils/cn";
import { APPLICATION_STEP_TITLES } from "~/domain/validation/application-constants";
import type { StepNumber } from "./wizard-steps";

// From the Zod-free constants, not ./wizard-steps: What We Need's upload bar is drawn by this module
// too, and the application page must not build the wizard's schemas to show it (decision 0052).
const STEP_TITLES: readonly string[] = APPLICATION_STEP_TITLES;
const STEP_COUNT = APPLICATION_STEP_TITLES.length;

/** 'Step n of 5', the percent complete (20 per step) as a progressbar, and the five step names. */
export function WizardProgress({ step }: { step: StepNumber }) {
  const percent = Math.round((step / STEP_COUNT) * 100);
  const title = STEP_TITLES[step - 1] ?? "";
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-4 text-sm font-semibold">
        <p className="text-primary">
          Step {step} of {STEP_COUNT}
        </p>
        <p className="text-muted-foreground">{percent}% Complete</p>
      </div>
      <ProgressBar
        label="Application progress"
        percent={percent}
        valueText={`Step ${step} of ${STEP_COUNT}: ${title}, ${percent}% complete`}
        barClassName="bg-primary duration-300"
      />
      <ol className="hidden grid-cols-5 gap-2 text-xs sm:grid">
        {STEP_TITLES.map((name, index) => {
          const n = index + 1;
          const done = n < step;
          const current = n === step;
          return (
            <li
              key={name}
              aria-current={current ? "step" : undefined}
              className={cn("flex items-center gap-1.5", current ? "font-semibold text-primary" : done ? "text-green-800" : "text-muted-foreground")}
            >
              <span
                aria-hidden="true"
                className={cn(
                  "flex size-5 shrink-0 items-center justify-center rounded-full border text-[0.7rem]",
                  current ? "border-primary bg-primary text-primary-foreground" : done ? "border-green-700 bg-green-50" : "border-input",
                )}
              >
                {done ? <Check className="size-3" /> : n}
              </span>
              <span>
                {name}
                {done ? <span className="sr-only"> (completed)</span> : null}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** The submission's upload, then the wait for the server's answer. */
export function UploadProgress({ percent }: { percent: number }) {
  const label = percent < 100 ? `Uploading… ${percent}%` : "Upload complete. Processing your application…";
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm font-medium text-primary">{label}</p>
      <ProgressBar label="Upload progress" percent={percent} barClassName="bg-gold-500 duration-200" />
    </div>
  );
}

/** A thin bar filled to `percent`, announced as a progressbar; `barClassName` colours the fill and times its growth. */
export function ProgressBar({ label, percent, valueText, barClassName }: { label: string; percent: number; valueText?: string; barClassName: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={valueText}
      className="h-2 w-full overflow-hidden rounded-full bg-navy-100"
    >
      <div className={cn("h-full rounded-full transition-[width] motion-reduce:transition-none", barClassName)} style={{ width: `${percent}%` }} />
    </div>
  );
}
