import { Star } from "lucide-react";
import { useState } from "react";
import { cn } from "~/utils/cn";

const LABELS = ["", "Poor", "Fair", "Good", "Very good", "Excellent"] as const;

/**
 * The rating picker: a radiogroup of five native radios named `name` (so the form posts the value even
 * without JavaScript), labelled '1 star' … '5 stars'. Keyboard: Tab into the group, arrow keys choose,
 * Space selects the focused star. Hovering previews a rating.
 */
export function StarRatingInput({
  name,
  value,
  onChange,
  labelId,
  errorId,
  invalid,
}: {
  name: string;
  /** 0 when nothing is chosen. */
  value: number;
  onChange: (value: number) => void;
  labelId: string;
  errorId: string;
  invalid: boolean;
}) {
  const [hover, setHover] = useState(0);
  const shown = hover || value;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <div
        role="radiogroup"
        aria-labelledby={labelId}
        aria-describedby={errorId}
        aria-required="true"
        aria-invalid={invalid || undefined}
        className="flex items-center"
        onMouseLeave={() => setHover(0)}
      >
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} className="relative inline-flex size-11 cursor-pointer items-center justify-center" onMouseEnter={() => setHover(n)}>
            <input
              type="radio"
              name={name}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              className="peer sr-only"
            />
            <Star
              aria-hidden="true"
              className={cn(
                "size-8 rounded-sm transition-colors motion-reduce:transition-none",
                "peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring peer-focus-visible:outline-solid",
                n <= shown ? "fill-gold-500 text-gold-700" : "fill-transparent text-slate-500",
              )}
            />
            <span className="sr-only">{n === 1 ? "1 star" : `${n} stars`}</span>
          </label>
        ))}
      </div>
      <span aria-hidden="true" className="min-w-20 text-sm font-medium text-muted-foreground">
        {shown ? `${LABELS[shown]} (${shown}/5)` : "Select a rating"}
      </span>
    </div>
  );
}
