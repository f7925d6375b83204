import { useStaffCan } from "~/components/admin/admin-shell";
import { Eye, EyeOff } from "lucide-react";
import { useState } from "react";
import { toast } from "~/components/toaster";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { cn } from "~/utils/cn";
import { REVEAL_TEXT, type RevealKind } from "~/domain/reveal";
import { requestReveal } from "./reveal-request";

type State = { status: "hidden" } | { status: "loading" } | { status: "shown"; value: string; legacy: boolean } | { status: "failed" };

/**
 * A masked sensitive value with a button that reveals it through the server (one value, audited)
 * and hides it again. SSNs: 'Reveal SSN', the 'SSN Revealed' toast with the audit note, and 'No SSN
 * Available' without asking when the application has none (the server refuses those too).
 */
export function SensitiveValue({
  kind,
  id,
  masked,
  label,
  available = true,
  format = (value: string) => value,
  testId,
}: {
  kind: RevealKind;
  /** Application id for an SSN, bank account id otherwise. */
  id: string;
  masked: string;
  /** Completes the button's accessible name: "Show <label>" ("account number of First Bank"), "Reveal SSN <label>". */
  label: string;
  /** False when the server said there is no value (an application without an SSN). */
  available?: boolean;
  format?: (value: string) => string;
  testId?: string;
}) {
  const [state, setState] = useState<State>({ status: "hidden" });
  // A role without reveals (the auditor) sees the masked value and no button.
  const mayReveal = useStaffCan("sensitive.reveal");
  const isSsn = kind === "ssn";
  const shown = state.status === "shown";

  async function reveal() {
    if (isSsn && !available) {
      toast.error(REVEAL_TEXT.noSsnTitle, { description: REVEAL_TEXT.noSsnMessage });
      return;
    }
    setState({ status: "loading" });
    const answer = await requestReveal(kind, id);
    if (answer.ok) {
      setState({ status: "shown", value: answer.value, legacy: answer.legacy });
      if (isSsn) toast.success(REVEAL_TEXT.ssnRevealedTitle, { description: REVEAL_TEXT.auditNote });
      return;
    }
    if (answer.status === 422) {
      setState({ status: "failed" });
      toast.error(REVEAL_TEXT.decryptionErrorTitle, { description: answer.message || REVEAL_TEXT.decryptFailed });
      return;
    }
    setState({ status: "hidden" });
    toast.error(answer.title, { description: answer.message });
  }

  const buttonText = shown ? "Hide" : isSsn ? "Reveal SSN" : "Show";
  if (!mayReveal) {
    return (
      <span data-testid={testId} data-state="hidden" className="font-mono text-sm tracking-wide break-all text-foreground">
        {masked}
      </span>
    );
  }
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <span
        data-testid={testId}
        data-state={state.status}
        className={cn("font-mono text-sm tracking-wide break-all", state.status === "failed" ? "font-sans text-destructive" : "text-foreground")}
      >
        {state.status === "shown" ? format(state.value) : state.status === "failed" ? REVEAL_TEXT.decryptFailed : masked}
      </span>
      {shown && state.legacy ? (
        <span className="rounded bg-yellow-100 px-1.5 py-0.5 text-xs font-medium text-yellow-900">stored unencrypted</span>
      ) : null}
      <Button
        variant="outline"
        size="sm"
        className="h-8 px-2.5"
        disabled={state.status === "loading"}
        aria-label={`${buttonText} ${label}`}
        onClick={() => (shown ? setState({ status: "hidden" }) : void reveal())}
      >
        {state.status === "loading" ? <Spinner className="size-4" /> : shown ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
        {buttonText}
      </Button>
    </span>
  );
}
