import type { DisclosureLine } from "~/domain/agreement-terms-text";
import { cn } from "~/utils/cn";

/**
 * The Truth in Lending box's lines under its four figures (Late Charge, Prepayment, and the reference
 * to the contract documents), as the signed PDF prints them: the labelled ones as a definition list
 * (label, then the text on the same line), the reference as a paragraph after it. The offer card and
 * the Review and Sign page both show them, so the offer carries every term the borrower signs.
 */
export function DisclosureLines({ lines, className }: { lines: readonly DisclosureLine[]; className?: string }) {
  const labelled = lines.filter((line) => line.label);
  const plain = lines.filter((line) => !line.label);
  return (
    <div className={cn("flex flex-col gap-2 text-sm", className)} data-testid="tila-lines">
      {labelled.length ? (
        <dl className="flex flex-col gap-2">
          {labelled.map((line) => (
            <div key={line.label}>
              <dt className="inline font-semibold">{line.label}:</dt> <dd className="inline">{line.text}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {plain.map((line) => (
        <p key={line.text} className="text-muted-foreground">
          {line.text}
        </p>
      ))}
    </div>
  );
}
