import { cn } from "~/utils/cn";

/**
 * Setting up an authenticator app: the QR code to scan, then the same key written out for typing in
 * (the staff second-factor page and the account's security settings show it alike).
 */
export function AuthenticatorKey({
  enrolment,
  imageClassName,
  keyClassName,
}: {
  enrolment: { secret: string; qrDataUrl: string };
  imageClassName?: string;
  keyClassName?: string;
}) {
  return (
    <>
      <img src={enrolment.qrDataUrl} width={200} height={200} alt="QR code for your authenticator app" className={cn("rounded border border-slate-200 bg-white p-2", imageClassName)} />
      <p className={cn("text-sm text-slate-700", keyClassName)}>
        Can't scan it? Enter this key manually:{" "}
        <code data-testid="mfa-secret" className="rounded bg-slate-100 px-2 py-1 font-mono break-all text-slate-900">
          {enrolment.secret}
        </code>
      </p>
    </>
  );
}
