import { LoaderCircle } from "lucide-react";
import { cn } from "~/utils/cn";

/**
 * A spinning indicator. Decorative by default; pass `label` to have it announced ("Loading...").
 * With prefers-reduced-motion it does not spin.
 */
export function Spinner({ className, label }: { className?: string; label?: string }) {
  return (
    <span className="inline-flex items-center" {...(label ? { role: "status" } : {})}>
      <LoaderCircle aria-hidden="true" className={cn("size-5 animate-spin motion-reduce:animate-none", className)} />
      {label ? <span className="sr-only">{label}</span> : null}
    </span>
  );
}
