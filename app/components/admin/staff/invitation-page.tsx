import { Form, Link, useNavigation } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { Button } from "~/components/ui/button";
import { InputField } from "~/components/ui/form";
import { describePasswordRules } from "~/domain/validation/password";
import {
  STAFF_MESSAGES,
  type AcceptInvitationActionData,
} from "~/domain/validation/staff";

export type InvitationPageData = {
  name: string;
  email: string;
  roleLabel: string;
  expiresAt: string;
} | null;

/**
 * /auth/invite/:token: the invitation (name, e-mail, role) and Set Password, or one sentence
 * when the link no longer works (unknown, used, cancelled and expired read the same: nothing leaks).
 */
export function InvitationPage({
  invitation,
  actionData,
}: {
  invitation: InvitationPageData;
  actionData: AcceptInvitationActionData | undefined;
}) {
  useActionToast(actionData);
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  const errors = actionData?.fieldErrors;
  return (
    <div className="mx-auto w-full max-w-lg px-4 py-12">
      <h1 className="text-2xl font-bold tracking-tight text-primary">
        Staff Invitation
      </h1>
      {!invitation ? (
        <div className="mt-6 flex flex-col gap-4">
          <p className="text-slate-800" data-testid="invitation-invalid">
            {STAFF_MESSAGES.linkInvalid}
          </p>
          <p className="text-slate-700">
            Ask an admin to send you a new invitation.
          </p>
          <Link to="/" className="text-link underline underline-offset-4">
            Go to the home page
          </Link>
        </div>
      ) : (
        <>
          <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="font-medium text-slate-900">Name</dt>
            <dd className="break-words text-slate-800">{invitation.name}</dd>
            <dt className="font-medium text-slate-900">E-mail</dt>
            <dd className="break-all text-slate-800">{invitation.email}</dd>
            <dt className="font-medium text-slate-900">Role</dt>
            <dd className="text-slate-800">{invitation.roleLabel}</dd>
          </dl>
          <section aria-labelledby="set-password-heading" className="mt-8">
            <h2
              id="set-password-heading"
              className="text-lg font-semibold text-primary"
            >
              Set Password
            </h2>
            <p className="mt-1 text-sm text-slate-700">
              Next you will set up two-factor authentication with an
              authenticator app.
            </p>
            <Form method="post" className="mt-4 flex flex-col gap-3">
              <InputField
                id="invite-password"
                label="Password"
                markRequired
                errors={errors?.password}
                hint={describePasswordRules.join(" · ")}
                name="password"
                type="password"
                autoComplete="new-password"
                maxLength={128}
              />
              <InputField
                id="invite-confirm-password"
                label="Confirm Password"
                markRequired
                errors={errors?.confirmPassword}
                name="confirmPassword"
                type="password"
                autoComplete="new-password"
                maxLength={128}
              />
              <Button type="submit" disabled={pending}>
                {pending ? "Setting Password…" : "Set Password"}
              </Button>
            </Form>
          </section>
        </>
      )}
    </div>
  );
}
