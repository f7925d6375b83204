import { CheckCircle2 } from "lucide-react";
import type { Ref } from "react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { shortId } from "~/domain/formats";

/** The screen after a successful submission (docs/requirements.md §2). */
export function Confirmation({ headingRef, applicationId }: { headingRef: Ref<HTMLHeadingElement>; applicationId: string }) {
  return (
    <section aria-labelledby="apply-confirmation-heading" className="flex flex-col items-center gap-5 py-6 text-center">
      <CheckCircle2 aria-hidden="true" className="size-16 text-green-700" />
      <h2 id="apply-confirmation-heading" ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-primary sm:text-3xl">
        Application Submitted Successfully!
      </h2>
      <p className="max-w-xl text-muted-foreground">
        Thank you for applying. A confirmation e-mail is on its way to you, and a loan specialist will contact you within 24-48 hours.
      </p>
      <p className="text-sm text-muted-foreground">
        Reference: <span className="font-mono text-foreground">{shortId(applicationId)}</span>
      </p>
      <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
        <Button asChild size="lg">
          <Link to="/dashboard">Go to Dashboard</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to="/">Back to Home</Link>
        </Button>
      </div>
    </section>
  );
}
