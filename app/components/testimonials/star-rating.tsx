import * as starIcon from "lucide-react/icons/star";
import { cn } from "~/utils/cn";
import { inlineIcon } from "~/components/ui/inline-icon";

const Star = inlineIcon(starIcon);

/** A read-only rating: five stars, announced as "Rated 4 out of 5 stars". */
export function StarRating({ rating, className }: { rating: number; className?: string }) {
  const value = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <div role="img" aria-label={`Rated ${value} out of 5 stars`} className={cn("flex items-center gap-0.5", className)}>
      {[1, 2, 3, 4, 5].map((n) => (
        <Star
          key={n}
          aria-hidden="true"
          className={cn("size-5", n <= value ? "fill-gold-500 text-gold-500" : "fill-transparent text-slate-400")}
        />
      ))}
    </div>
  );
}
