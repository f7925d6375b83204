import { KeyRound, ShieldCheck } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { BackupCodeList } from "~/components/backup-codes";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { AuthenticatorKey } from "~/components/auth/authenticator-key";
import type { ActionResult } from "~/domain/action-result";

/** Enrol an authenticator (QR code, manual key, first code, backup codes) or verify this session. */
export function MfaPanel({
  mode,
  enrolment,
  redirectTo,
  answer,
  backupCodes,
  children,
}: {
  mode: "enrol" | "verify" | "verified";
  enrolment: { secret: string; qrDataUrl: string } | null;
  redirectTo: string;
  /** The action's answer: a refusal's toast title is the message shown under the code. */
  answer: ActionResult | undefined;
  backupCodes: string[] | null;
  /** Other ways through, under the code form (a passkey, signing out). */
  children?: ReactNode;
}) {
  const message = answer && !answer.ok ? (answer.toast?.title ?? null) : null;
  const busy = useNavigation().state !== "idle";
  const codeRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (message) codeRef.current?.focus();
  }, [message]);

  if (backupCodes) {
    return (
      <div className="mx-auto w-full max-w-xl px-4 py-12">
        <Card className="p-6 sm:p-8">
          <h1 className="flex items-center gap-2 text-2xl font-bold text-primary">
            <ShieldCheck aria-hidden="true" className="size-6" /> Two-factor authentication is on
          </h1>
          <p className="mt-4 text-slate-700">
            Save these backup codes somewhere safe (a password manager). Each one works once if you lose your
            authenticator. They will not be shown again.
          </p>
          <BackupCodeList codes={backupCodes} className="mt-4" />
          <Button asChild className="mt-4">
            <Link to={redirectTo}>Continue to the admin area</Link>
          </Button>
        </Card>
      </div>
    );
  }

  if (mode === "verified") {
    return (
      <div className="mx-auto w-full max-w-xl px-4 py-12">
        <Card className="p-6 sm:p-8">
          <h1 className="flex items-center gap-2 text-2xl font-bold text-primary">
            <ShieldCheck aria-hidden="true" className="size-6" /> Identity verified
          </h1>
          <p className="mt-4 text-slate-700">This session has passed two-factor authentication.</p>
          <Button asChild className="mt-6">
            <Link to={redirectTo}>Continue to the admin area</Link>
          </Button>
        </Card>
      </div>
    );
  }

  const errorId = "mfa-code-error";
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-12">
      <Card className="p-6 sm:p-8">
        <h1 className="flex items-center gap-2 text-2xl font-bold text-primary">
          <KeyRound aria-hidden="true" className="size-6" />
          {mode === "enrol" ? "Set up two-factor authentication" : "Two-factor authentication"}
        </h1>
        {mode === "enrol" && enrolment ? (
          <>
            <p className="mt-4 text-slate-700">
              Staff who can see customer data must use a second factor. Scan this QR code with an authenticator app
              (Google Authenticator, Microsoft Authenticator, 1Password…), then enter the 6-digit code it shows.
            </p>
            <AuthenticatorKey enrolment={enrolment} imageClassName="mx-auto mt-6" keyClassName="mt-4" />
          </>
        ) : (
          <p className="mt-4 text-slate-700">Enter the 6-digit code from your authenticator app, or one of your backup codes.</p>
        )}
        <Form method="post" className="mt-6 space-y-4">
          <input type="hidden" name="intent" value={mode} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <div className="space-y-2">
            <Label htmlFor="mfa-code">{mode === "enrol" ? "Authentication Code" : "Authentication or Backup Code"}</Label>
            <Input
              ref={codeRef}
              id="mfa-code"
              name="code"
              inputMode={mode === "enrol" ? "numeric" : "text"}
              autoComplete="one-time-code"
              maxLength={mode === "enrol" ? 6 : 11}
              required
              aria-invalid={message ? true : undefined}
              aria-describedby={message ? errorId : undefined}
            />
            <p id={errorId} role={message ? "alert" : undefined} className="min-h-5 text-sm text-red-700">
              {message ?? ""}
            </p>
          </div>
          <Button type="submit" disabled={busy}>
            {busy ? "Verifying..." : mode === "enrol" ? "Turn On Two-Factor Authentication" : "Verify"}
          </Button>
        </Form>
        {children}
      </Card>
    </div>
  );
}
