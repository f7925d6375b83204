import { LogIn, UserPlus } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import { LogoMark } from "~/components/logo";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import type { AuthActionData } from "~/domain/auth-action";
import type { CaptchaBrowserConfig } from "~/domain/validation/captcha-messages";
import { ForgotPasswordForm } from "./forgot-password-form";
import { PasskeyButton } from "./passkey-button";
import { ResetPasswordForm, useResetLinkStatus } from "./reset-password-form";
import { SignInForm } from "./sign-in-form";
import { SignUpForm } from "./sign-up-form";

export type AuthPageProps = {
  captcha: CaptchaBrowserConfig;
  /** Where a successful sign-in goes (already checked by the loader to be a local path). */
  redirectTo: string;
  /** The action's answer to a form posted without JavaScript (forms with JavaScript use fetchers). */
  actionData?: AuthActionData;
};

type Tab = "sign-in" | "sign-up";

/** `#type=recovery&token=...` from a password-reset e-mail, or null. */
function readRecoveryFragment(): { token: string } | null {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  if (params.get("type") !== "recovery") return null;
  return { token: params.get("token") ?? "" };
}

/**
 * /auth (docs/requirements.md §3): Sign In and Create Account tabs, Forgot Password in place of the sign-in form,
 * and Reset Your Password when the address fragment says type=recovery.
 */
export function AuthPage({ captcha, redirectTo, actionData }: AuthPageProps) {
  const location = useLocation();
  const [recovery, setRecovery] = useState<{ token: string } | null>(null);
  const [tab, setTab] = useState<Tab>(actionData?.intent === "sign-up" || actionData?.intent === "send-code" ? "sign-up" : "sign-in");
  const [view, setView] = useState<"sign-in" | "forgot">(actionData?.intent === "reset-request" ? "forgot" : "sign-in");
  const forgotButtonRef = useRef<HTMLButtonElement>(null);
  const forgotHeadingRef = useRef<HTMLHeadingElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const viewChanged = useRef(false);
  const handledLocation = useRef<string | null>(null);
  const link = useResetLinkStatus(recovery?.token ?? null);

  // On load and on every navigation to /auth (a reset link opened in this tab changes only the
  // fragment; the redirect after a password reset lands here again). The reset token travels in the
  // fragment, which browsers never send to the server: read it here, keep it in memory, and take it out
  // of the address bar and the history entry.
  useEffect(() => {
    if (handledLocation.current === location.key) return;
    const firstVisit = handledLocation.current === null;
    handledLocation.current = location.key;
    const found = readRecoveryFragment();
    if (found) {
      // The fragment exists only in the browser (never in the server render), so it can only be read
      // after hydration: this is the one-off sync from an external source the rule allows for.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setRecovery(found);
      window.history.replaceState(window.history.state, "", `${window.location.pathname}${window.location.search}`);
    } else if (!firstVisit) {
      // A new visit to /auth starts from the sign-in form.
      setRecovery(null);
      setTab("sign-in");
      setView("sign-in");
    }
  }, [location.key]);

  // Forgot Password and back: focus follows the swapped form.
  useEffect(() => {
    if (!viewChanged.current) return;
    if (view === "forgot") forgotHeadingRef.current?.focus();
    else forgotButtonRef.current?.focus();
  }, [view]);

  const showView = (next: "sign-in" | "forgot") => {
    viewChanged.current = true;
    setView(next);
  };

  const leaveRecovery = () => {
    setRecovery(null);
    setTab("sign-in");
    setView("sign-in");
    requestAnimationFrame(() => headingRef.current?.focus());
  };

  return (
    <div className="flex flex-1 items-center justify-center bg-linear-to-b from-navy-50 to-background px-3 py-8 sm:px-6 sm:py-16">
      <Card className="w-full max-w-md">
        <CardHeader className="items-center p-4 text-center sm:p-6">
          <LogoMark className="size-12" />
          <h1 ref={headingRef} tabIndex={-1} className="text-2xl font-bold tracking-tight text-primary">
            {recovery ? "Reset Your Password" : "Welcome to Private Loans"}
          </h1>
          <p className="text-sm text-muted-foreground">
            {recovery
              ? link.state === "spent"
                ? "Ask for a new link to reset your password."
                : "Choose a new password for your account."
              : "Sign in to your account, or create one to apply for a loan and follow your applications."}
          </p>
        </CardHeader>
        <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
          {recovery && link.state === "checking" ? (
            <p role="status" className="text-center text-sm text-muted-foreground">
              Checking your reset link...
            </p>
          ) : recovery && link.state === "spent" ? (
            <div className="flex flex-col gap-4">
              <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-slate-800">
                {link.message}
              </p>
              <ForgotPasswordForm captcha={captcha} actionData={actionData} onBack={leaveRecovery} />
            </div>
          ) : recovery ? (
            <ResetPasswordForm token={recovery.token} actionData={actionData} onBack={leaveRecovery} />
          ) : (
            <Tabs value={tab} onValueChange={(value) => setTab(value as Tab)}>
              <TabsList aria-label="Account">
                <TabsTrigger value="sign-in" className="px-2 whitespace-normal">
                  <LogIn aria-hidden="true" className="hidden sm:block" />
                  Sign In
                </TabsTrigger>
                <TabsTrigger value="sign-up" className="px-2 whitespace-normal">
                  <UserPlus aria-hidden="true" className="hidden sm:block" />
                  Create Account
                </TabsTrigger>
              </TabsList>
              {/* Both panels stay mounted so switching tabs keeps what was typed (and a sent code). */}
              <TabsContent value="sign-in" forceMount>
                {view === "forgot" ? (
                  <ForgotPasswordForm captcha={captcha} actionData={actionData} onBack={() => showView("sign-in")} headingRef={forgotHeadingRef} />
                ) : (
                  <>
                    <SignInForm
                      captcha={captcha}
                      redirectTo={redirectTo}
                      actionData={actionData}
                      onForgotPassword={() => showView("forgot")}
                      forgotButtonRef={forgotButtonRef}
                    />
                    <PasskeyButton kind="sign-in" redirectTo={redirectTo} label="Sign In with a Passkey" />
                  </>
                )}
              </TabsContent>
              <TabsContent value="sign-up" forceMount>
                <SignUpForm captcha={captcha} redirectTo={redirectTo} actionData={actionData} />
              </TabsContent>
            </Tabs>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
