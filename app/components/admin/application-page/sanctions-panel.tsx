import { ShieldAlert, ShieldCheck, ShieldX } from "lucide-react";
import { useRef, useState, type FormEvent } from "react";
import { useFetcher } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { Fact } from "~/components/admin/fact";
import { ReasonAndConfirm, useReason } from "~/components/admin/reason-dialog-form";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ModalDialog } from "~/components/ui/dialog";
import { useEachAnswer } from "~/components/use-each-answer";
import { formatDateTime, formatDay, formatPercent } from "~/domain/formats";

/** A Jaro-Winkler similarity (0 to 1) as a percent with up to two decimals: 0.9734 → "97.34%". */
function similarityPercent(score: number): string {
  return formatPercent(score * 100);
}
import { SANCTIONS_LIST_LABELS, SANCTIONS_MATCH_STATUS_LABELS, type SanctionsMatch } from "~/domain/sanctions";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import {
  SANCTIONS_REASON_LIMITS,
  sanctionsDecisionSchema,
  type SanctionsDecisionActionData,
  type SanctionsDecisionIntent,
} from "~/domain/validation/sanctions-decision";
import { SANCTIONS_HEADINGS, SANCTIONS_TRIGGER_LABELS, type SanctionsMatchView, type SanctionsPanelView } from "~/domain/views/sanctions-panel";

/**
 * Sanctions Screening on the staff application page: the state in the heading (exactly "Sanctions
 * Screening: Potential Match" while a match is open), the last screening (when, why, against which
 * publications), each open match with its list entry and what helps decide (dates of birth and
 * countries, and whether the applicant's agree), Clear Match and Confirm Match (each a dialog asking
 * for the reason), and the matches already decided. A role that may not work applications reads only.
 */
export function SanctionsPanel({ applicationId, sanctions, canWork, timeZone }: { applicationId: string; sanctions: SanctionsPanelView; canWork: boolean; timeZone: string }) {
  const open = sanctions.matches.filter((m) => m.status === "open");
  const decided = sanctions.matches.filter((m) => m.status !== "open");
  const frozen = sanctions.state === "confirmed";
  const Icon = sanctions.state === "clear" ? ShieldCheck : sanctions.state === "confirmed" ? ShieldX : ShieldAlert;
  return (
    <Card className="p-4 sm:p-5" role="region" aria-labelledby="sanctions-heading" data-testid="sanctions-panel" data-state={sanctions.state}>
      <h2 id="sanctions-heading" tabIndex={-1} className="flex items-center gap-2 text-lg font-semibold text-primary focus-visible:outline-3">
        <Icon aria-hidden="true" className="size-5" />
        {SANCTIONS_HEADINGS[sanctions.state]}
      </h2>
      <LastScreening sanctions={sanctions} timeZone={timeZone} />
      {frozen ? (
        <p className="mt-2 text-sm font-semibold text-red-800" data-testid="sanctions-frozen">
          A match was confirmed: the application is frozen and cannot be funded.
        </p>
      ) : null}
      {open.length > 0 ? (
        <ul className="mt-4 flex flex-col gap-4" aria-label="Potential matches">
          {open.map((m) => (
            <li key={m.id} className="rounded-md border border-amber-300 bg-amber-50 p-3" data-testid="sanctions-match" data-match-id={m.id}>
              <MatchEntry match={m.match} />
              {canWork && !frozen ? <MatchDecisions applicationId={applicationId} match={m} /> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {decided.length > 0 ? (
        <details className="mt-4 border-t border-border pt-3" data-testid="sanctions-decided">
          <summary className="cursor-pointer text-sm font-medium">Decided matches ({decided.length})</summary>
          <ul className="mt-2 flex flex-col gap-3 text-sm">
            {decided.map((m) => (
              <li key={m.id}>
                <p>
                  <span className="font-semibold">{SANCTIONS_MATCH_STATUS_LABELS[m.status]}</span>: {m.match.primaryName} ({SANCTIONS_LIST_LABELS[m.match.list]}, entry{" "}
                  {m.match.entityNumber}), by {m.decidedByName ?? "a former staff member"}
                  {m.decidedAt ? (
                    <>
                      {" "}
                      on <time dateTime={m.decidedAt}>{formatDateTime(m.decidedAt, timeZone)}</time>
                    </>
                  ) : null}
                </p>
                {m.reason ? <p className="mt-0.5 break-words whitespace-pre-line text-slate-700">{m.reason}</p> : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </Card>
  );
}

function LastScreening({ sanctions, timeZone }: { sanctions: SanctionsPanelView; timeZone: string }) {
  const last = sanctions.lastScreening;
  if (!last) return <p className="mt-1 text-sm">The applicant has not been screened.</p>;
  return (
    <p className="mt-1 text-sm" data-testid="sanctions-last-screening">
      Last screened <time dateTime={last.screenedAt}>{formatDateTime(last.screenedAt, timeZone)}</time> {SANCTIONS_TRIGGER_LABELS[last.trigger]}
      {last.lists.length === 0
        ? ", when no sanctions list was loaded: the applicant was compared with nothing."
        : `, against ${last.lists.map((l) => `the ${SANCTIONS_LIST_LABELS[l.list]} published ${formatDay(l.publishedOn)}`).join(" and ")}: ${last.matchCount} potential match${last.matchCount === 1 ? "" : "es"} found.`}
    </p>
  );
}

const ENTITY_TYPE_LABELS: Record<SanctionsMatch["entityType"], string> = { individual: "Individual", entity: "Entity", vessel: "Vessel", aircraft: "Aircraft" };
const NAME_KIND_LABELS: Record<SanctionsMatch["matchedAs"], string> = { primary: "primary name", aka: "a.k.a.", fka: "f.k.a.", nka: "n.k.a." };

/** Whether the applicant's value agrees with the list's, in words (null: either side has none). */
function agreement(agrees: boolean | null): string {
  return agrees === null ? "" : agrees ? " (agrees with the applicant's)" : " (differs from the applicant's)";
}

function MatchEntry({ match }: { match: SanctionsMatch }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm min-[480px]:grid-cols-2 lg:grid-cols-4">
      <Fact label="List">{SANCTIONS_LIST_LABELS[match.list]}</Fact>
      <Fact label="Primary Name">{match.primaryName}</Fact>
      <Fact label="Matched Name">
        {match.matchedName} ({NAME_KIND_LABELS[match.matchedAs]})
      </Fact>
      <Fact label="Score">{similarityPercent(match.score)}</Fact>
      <Fact label="Programs">{match.programs.length ? match.programs.join(", ") : "None listed"}</Fact>
      <Fact label="Entity Type">{ENTITY_TYPE_LABELS[match.entityType]}</Fact>
      <Fact label="Dates of Birth">
        {match.datesOfBirth.length ? match.datesOfBirth.join(", ") : "None listed"}
        {agreement(match.dateOfBirthAgrees)}
      </Fact>
      <Fact label="Countries">
        {match.countries.length ? match.countries.join(", ") : "None listed"}
        {agreement(match.countryAgrees)}
      </Fact>
      <Fact label="List Entry">{match.entityNumber}</Fact>
    </dl>
  );
}

const DIALOGS: Record<SanctionsDecisionIntent, { title: string; description: string; pending: string }> = {
  "clear-match": {
    title: "Clear Match",
    description: "The applicant is not the listed person. This entry is not flagged again for this application unless the list changes it. Your reason is kept in the audit log.",
    pending: "Clearing…",
  },
  "confirm-match": {
    title: "Confirm Match",
    description:
      "The applicant is the listed person. The application is denied (the notice names no list) and frozen: it cannot be funded. Every admin is told. Your reason is kept in the audit log.",
    pending: "Confirming…",
  },
};

/** Clear Match and Confirm Match for one open match: each opens a dialog asking for the reason. */
function MatchDecisions({ applicationId, match }: { applicationId: string; match: SanctionsMatchView }) {
  const [intent, setIntent] = useState<SanctionsDecisionIntent | null>(null);
  const reason = useReason();
  const openers = { "clear-match": useRef<HTMLButtonElement>(null), "confirm-match": useRef<HTMLButtonElement>(null) };
  const [shown, setShown] = useState<SanctionsDecisionIntent>("clear-match");
  const fetcher = useFetcher<SanctionsDecisionActionData>({ key: `sanctions-${match.id}` });
  const pending = fetcher.state !== "idle";
  const action = `/admin/applications/${applicationId}/sanctions`;
  useActionToast(fetcher.data);
  useEachAnswer(fetcher.data, (data) => {
    if (data.ok) {
      setIntent(null);
      reason.clear();
    } else if (data.fieldErrors?.reason) {
      reason.refuse(data.fieldErrors.reason);
    } else {
      // Decided by someone else meanwhile (or frozen): the page reloads to show it.
      setIntent(null);
    }
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending || !intent) return;
    const parsed = sanctionsDecisionSchema.safeParse({ intent, matchId: match.id, reason: reason.value });
    if (!parsed.success) {
      reason.refuse(issuesToFieldErrors(parsed.error).reason);
      return;
    }
    void fetcher.submit({ intent, matchId: match.id, reason: parsed.data.reason }, { method: "post", action });
  }

  // The dialog keeps the last decision's words while it closes.
  const dialog = DIALOGS[intent ?? shown];
  const start = (next: SanctionsDecisionIntent) => {
    setShown(next);
    setIntent(next);
  };
  return (
    <>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <Button ref={openers["clear-match"]} variant="outline" onClick={() => start("clear-match")} data-action="clear-match">
          <ShieldCheck aria-hidden="true" />
          Clear Match
        </Button>
        <Button ref={openers["confirm-match"]} variant="destructive" onClick={() => start("confirm-match")} data-action="confirm-match">
          <ShieldX aria-hidden="true" />
          Confirm Match
        </Button>
      </div>
      <ModalDialog
        open={intent !== null}
        onOpenChange={(next) => {
          if (next) return;
          setIntent(null);
          reason.clearErrors();
        }}
        onCloseFocus={() => {
          const opener = openers[shown].current;
          if (opener?.isConnected) opener.focus();
          else document.getElementById("sanctions-heading")?.focus();
        }}
        title={dialog.title}
        description={dialog.description}
        testId="sanctions-decision-dialog"
      >
        <form method="post" action={action} noValidate onSubmit={onSubmit} className="mt-5 flex flex-col gap-3">
          <ReasonAndConfirm
            {...reason.field}
            hint={`${SANCTIONS_REASON_LIMITS.min} to ${SANCTIONS_REASON_LIMITS.max} characters; staff and examiners read it, the applicant never does.`}
            maxLength={SANCTIONS_REASON_LIMITS.max}
            pending={pending}
            confirmLabel={dialog.title}
            pendingLabel={dialog.pending}
          >
            <input type="hidden" name="intent" value={intent ?? shown} />
            <input type="hidden" name="matchId" value={match.id} />
          </ReasonAndConfirm>
        </form>
      </ModalDialog>
    </>
  );
}
