import { Activity, DatabaseZap, FileText, ShieldCheck, Users } from "lucide-react";
import { Link } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { PendingButton } from "~/components/ui/pending-button";
import { useReviewFetcher } from "./use-review-fetcher";

/** The four link cards of the admin dashboard (docs/requirements.md §3). */
export const ADMIN_TOOL_LINKS = [
  { to: "/admin/clients", title: "Client Information", description: "Profiles, bank accounts, applications and documents of each client.", icon: Users },
  { to: "/admin/security", title: "Security Settings", description: "Password protection, two-factor authentication and best practices.", icon: ShieldCheck },
  { to: "/admin/monitoring", title: "Activity Monitoring", description: "Admin activity and the audit log of data access.", icon: Activity },
  { to: "/admin/documents", title: "Document Viewer", description: "Preview and download the documents applicants uploaded.", icon: FileText },
] as const;

export function AdminToolLinks() {
  return (
    <section aria-labelledby="admin-tools-heading">
      <h2 id="admin-tools-heading" className="sr-only">
        Admin tools
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {ADMIN_TOOL_LINKS.map(({ to, title, description, icon: Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="group flex h-full flex-col gap-2 rounded-xl border border-border bg-card p-5 shadow-sm transition-colors hover:border-primary hover:bg-navy-50 focus-visible:outline-3 focus-visible:outline-offset-2"
            >
              <Icon aria-hidden="true" className="size-6 text-navy-700" />
              <span className="text-base font-semibold text-primary group-hover:underline">{title}</span>
              <span className="text-sm text-slate-700">{description}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Secure Data Utilities: 'Encrypt Existing Bank Data' runs the one-off migration (docs/requirements.md §1, §8).
 * It is safe to run again; the toast reports what was encrypted and skipped.
 */
export function SecureDataUtilities() {
  const { fetcher, pending } = useReviewFetcher("admin-encrypt-migration");
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <DatabaseZap aria-hidden="true" className="size-5" />
          Secure Data Utilities
        </CardTitle>
        <CardDescription>
          Encrypts bank account and routing numbers and SSNs still stored in plain text, and re-encrypts values written with an older key.
          Values already encrypted are left as they are, so running it again is safe.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="encrypt-migration" />
          <PendingButton type="submit" variant="outline" pending={pending} icon={null}>
            {pending ? "Encrypting…" : "Encrypt Existing Bank Data"}
          </PendingButton>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}
