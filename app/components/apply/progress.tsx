import { Check } from "lucide-react";
import { cn } from "~/utils/cn";
import { STEP_COUNT, STEP_TITLES, type StepNumber } from "./wizard-steps";

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
      <div
        role="progressbar"
        aria-label="Application progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`Step ${step} of ${STEP_COUNT}: ${title}, ${percent}% complete`}
        className="h-2 w-full overflow-hidden rounded-full bg-navy-100"
      >
        <div className="h-full rounded-full bg-primary transition-[width] duration-300 motion-reduce:transition-none" style={{ width: `${percent}%` }} />
      </div>
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
