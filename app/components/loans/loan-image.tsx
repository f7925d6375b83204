import type { LoanProduct } from "~/content/loans";
import { cn } from "~/utils/cn";

/**
 * The loan's illustration (a small SVG from public/images/loans). Lazy unless it is above the fold.
 * `decorative` drops the alt text where the loan's title sits right beside the picture.
 */
export function LoanImage({
  loan,
  eager = false,
  decorative = false,
  className,
}: {
  loan: LoanProduct;
  eager?: boolean;
  decorative?: boolean;
  className?: string;
}) {
  return (
    <img
      src={loan.image.src}
      alt={decorative ? "" : loan.image.alt}
      width={loan.image.width}
      height={loan.image.height}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      {...(eager ? { fetchPriority: "high" as const } : {})}
      className={cn("h-auto w-full", className)}
    />
  );
}
