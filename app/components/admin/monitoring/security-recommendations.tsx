import { AlertTriangle, ShieldCheck } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import type { AdminActivitySummaryRow } from "~/domain/monitoring";

const RECOMMENDATIONS = [
  {
    title: "Review unusual volumes",
    text: "An admin with more than 100 actions in a range (a red badge) should be able to explain it; bulk reading of client data is the usual sign of a compromised account.",
  },
  {
    title: "Enforce multi-factor authentication",
    text: "Every staff account signs in with an authenticator code. Remove the admin role the day someone leaves.",
  },
  {
    title: "Least privilege",
    text: "Grant the admin role only to staff who review applications, and remove it when duties change.",
  },
  {
    title: "Rotate keys",
    text: "Rotate ENCRYPTION_KEY and APP_SECRET on schedule and after any suspected exposure; older keys stay listed only to decrypt.",
  },
  {
    title: "Reveal only what you need",
    text: "Every SSN and bank-number reveal, document link and decision is recorded here and cannot be deleted.",
  },
] as const;

/** Standing advice plus alerts for the admins whose volume stands out in the current range. */
export function SecurityRecommendations({ summary, rangeText }: { summary: AdminActivitySummaryRow[] | null; rangeText: string }) {
  const high = (summary ?? []).filter((row) => row.actionCount > 100);
  const elevated = (summary ?? []).filter((row) => row.actionCount > 50 && row.actionCount <= 100);
  return (
    <Card className="border-gold-500 bg-gold-200/20">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck aria-hidden="true" className="size-5" /> Security Recommendations
        </CardTitle>
      </CardHeader>
      <CardContent>
        {high.length + elevated.length > 0 ? (
          <ul className="mb-4 space-y-2" aria-label="Activity alerts">
            {[...high, ...elevated].map((row) => (
              <li key={row.adminId} className="flex items-start gap-2 rounded-md border border-destructive/40 bg-white p-3 text-sm text-slate-900">
                <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive" />
                <span>
                  {row.adminName} performed {row.actionCount} actions in the {rangeText}
                  {row.actionCount > 100 ? ": review this volume now." : ": higher than usual."}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
        <ul className="space-y-3 text-sm">
          {RECOMMENDATIONS.map((r) => (
            <li key={r.title}>
              <span className="font-semibold text-slate-900">{r.title}.</span> <span className="text-slate-700">{r.text}</span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
