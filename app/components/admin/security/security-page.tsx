import { Activity, CheckCircle2, KeyRound, ListChecks, Smartphone } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { toast } from "~/components/toaster";
import { AdminShell } from "~/components/admin/admin-shell";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";

export const SECURITY_NOTICE = "This setting is managed by your administrator in the server configuration.";

export type SecurityFacts = { breachCheckEnabled: boolean; admins: number; adminsWithMfa: number };

const BEST_PRACTICES = [
  "Use a long, unique passphrase for your admin account and keep it in a password manager.",
  "Keep your authenticator app and your backup codes in separate, safe places.",
  "Sign out when you leave a shared or public computer.",
  "Reveal an SSN or bank number only when the review needs it; every reveal is logged.",
  "Review Activity Monitoring at least weekly and follow up on unusual volumes.",
  "Grant the admin role only to staff who need it, and remove it the day duties change.",
  "Report a lost device or a suspicious sign-in to your security officer at once.",
] as const;

/** What Manage MFA Policy says: the policy itself, which no admin setting can relax. */
export const MFA_POLICY_NOTICE = {
  title: "MFA is required for every admin",
  description:
    "Each admin sets up an authenticator app at first sign-in and verifies every new session with a code; this requirement cannot be turned off.",
} as const;

/**
 * The action buttons only show a notice: these settings live in the server configuration, and the
 * page calls nothing (docs/requirements.md §3).
 */
function showNotice(notice: { title: string; description: string }) {
  toast.info(notice.title, { description: notice.description, id: "security-notice" });
}

const configNotice = (setting: string) => ({ title: `${setting} is managed centrally`, description: SECURITY_NOTICE });

/** A setting's action: it only shows the notice (see showNotice). */
function NoticeButton({ notice, children }: { notice: { title: string; description: string }; children: ReactNode }) {
  return (
    <Button variant="outline" onClick={() => showNotice(notice)}>
      {children}
    </Button>
  );
}

function SettingCard({
  icon,
  title,
  description,
  status,
  children,
  footer,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  status?: ReactNode;
  children: ReactNode;
  footer: ReactNode;
}) {
  return (
    <Card className="flex flex-col">
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <CardTitle className="flex items-center gap-2">
            {icon} {title}
          </CardTitle>
          {status}
        </div>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="flex-1 text-sm text-slate-700">{children}</CardContent>
      <CardFooter>{footer}</CardFooter>
    </Card>
  );
}

/** /admin/security: breached-password protection, staff MFA, a link to monitoring, a checklist. */
export function SecurityPage({ facts }: { facts: SecurityFacts }) {
  return (
    <AdminShell title="Security Settings" description="How accounts and admin access are protected.">
      <div className="grid gap-6 md:grid-cols-2">
        <SettingCard
          icon={<KeyRound aria-hidden="true" className="size-5" />}
          title="Password Breach Protection"
          description="New and reset passwords are checked against known data breaches."
          status={<Badge variant={facts.breachCheckEnabled ? "success" : "warning"}>{facts.breachCheckEnabled ? "On" : "Off"}</Badge>}
          footer={<NoticeButton notice={configNotice("Breach protection")}>Configure Breach Protection</NoticeButton>}
        >
          <p>
            Only the first five characters of a password&apos;s SHA-1 hash leave our server (a k-anonymity range query), so the
            password itself is never sent. A password found in a breach is refused with the number of times it was seen; if
            the breach service cannot be reached, the password is accepted so sign-up keeps working.
          </p>
          {facts.breachCheckEnabled ? null : (
            <p className="mt-3 font-medium text-yellow-900">The check is turned off in this installation (PWNED_PASSWORDS_URL).</p>
          )}
        </SettingCard>

        <SettingCard
          icon={<Smartphone aria-hidden="true" className="size-5" />}
          title="Multi-Factor Authentication"
          description="Every admin session needs a code from an authenticator app."
          status={<Badge variant="success">Required for admins</Badge>}
          footer={<NoticeButton notice={MFA_POLICY_NOTICE}>Manage MFA Policy</NoticeButton>}
        >
          <p>
            Staff use time-based one-time codes (TOTP, any standard authenticator app) with ten single-use backup codes. No
            admin page or admin data is served until the second factor is verified for the session.
          </p>
          <p className="mt-3" data-testid="mfa-enrolment">
            <strong className="font-semibold text-slate-900">
              {facts.adminsWithMfa} of {facts.admins}
            </strong>{" "}
            {facts.admins === 1 ? "admin has" : "admins have"} an authenticator set up.
          </p>
        </SettingCard>

        <SettingCard
          icon={<Activity aria-hidden="true" className="size-5" />}
          title="Activity Monitoring"
          description="Every admin read of client data, reveal, document link and decision is logged."
          footer={
            <Button asChild>
              <Link to="/admin/monitoring">Open Activity Monitoring</Link>
            </Button>
          }
        >
          <p>
            The audit log is append-only: entries cannot be changed or deleted, not even by an admin. Review per-admin volumes
            and the latest entries over the last 6 hours to 7 days.
          </p>
        </SettingCard>

        <SettingCard
          icon={<ListChecks aria-hidden="true" className="size-5" />}
          title="Security Best Practices"
          description="What every admin does to keep client data safe."
          footer={<NoticeButton notice={configNotice("The security policy")}>Update Security Policy</NoticeButton>}
        >
          <ul className="space-y-2">
            {BEST_PRACTICES.map((item) => (
              <li key={item} className="flex items-start gap-2">
                <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-green-700" />
                <span>{item}</span>
              </li>
            ))}
          </ul>
        </SettingCard>
      </div>
    </AdminShell>
  );
}
