import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { showActionToast } from "~/components/action-toast";
import { Button } from "~/components/ui/button";
import { PendingButton } from "~/components/ui/pending-button";
import { loanTypeLabel } from "~/domain/labels";

type Answer = { ok: boolean; message?: string };

/**
 * Discard a saved application: asked once more in place, because the draft's documents go
 * with it and nothing brings them back. The answer's message is shown as a toast either way; on
 * success the dashboard's loaders run again and the card leaves.
 */
export function DiscardDraft({ loanType }: { loanType: string }) {
  const fetcher = useFetcher<Answer>();
  const [asking, setAsking] = useState(false);
  const shown = useRef<Answer | undefined>(undefined);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const askRef = useRef<HTMLButtonElement>(null);
  const label = loanTypeLabel(loanType);

  useEffect(() => {
    const answer = fetcher.data;
    // Shown as soon as the answer is in (the loaders then run again, and on success this card leaves).
    if (!answer || shown.current === answer) return;
    shown.current = answer;
    showActionToast(
      answer.ok
        ? { type: "success", title: "Application Discarded", description: answer.message ?? "Your saved application was discarded." }
        : { type: "error", title: "Not Discarded", description: answer.message ?? "Please try again." },
    );
  }, [fetcher.data]);

  // Focus follows the question: onto "Yes, Discard" when asked, back to "Discard" when kept.
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);

  if (!asking) {
    return (
      <Button ref={askRef} type="button" variant="outline" size="sm" onClick={() => setAsking(true)}>
        Discard<span className="sr-only"> the saved {label} application</span>
      </Button>
    );
  }
  return (
    <fetcher.Form method="post" action="/api/drafts" encType="multipart/form-data" className="flex flex-wrap items-center gap-2" aria-label={`Discard the saved ${label} application`}>
      <p className="text-sm text-foreground">Discard this saved application and its documents?</p>
      <input type="hidden" name="intent" value="discard" />
      <input type="hidden" name="loanType" value={loanType} />
      <PendingButton ref={confirmRef} type="submit" variant="destructive" size="sm" pending={fetcher.state !== "idle"} icon={null}>
        Yes, Discard
      </PendingButton>
      <Button
        type="button"
        variant="outline"
        size="sm"
        onClick={() => {
          setAsking(false);
          requestAnimationFrame(() => askRef.current?.focus());
        }}
      >
        Keep It
      </Button>
    </fetcher.Form>
  );
}
