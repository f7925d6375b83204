import { useState } from "react";
import { Button } from "~/components/ui/button";

/**
 * Sign In with a Passkey (on /auth) or Use a Passkey (a session's second factor). Deliberately small:
 * the ceremony and the WebAuthn library load on the click, so /auth's first load stays within budget.
 */
export function PasskeyButton({ kind, redirectTo, label }: { kind: "sign-in" | "second-factor"; redirectTo: string; label: string }) {
  const [state, setState] = useState<{ busy: boolean; message: string }>({ busy: false, message: "" });
  async function run() {
    setState({ busy: true, message: "" });
    const { passkeyAuthenticate } = await import("./passkey-ceremony");
    const result = await passkeyAuthenticate(kind, redirectTo).catch(() => ({ ok: false as const, message: "Something went wrong. Please try again." }));
    // A full load: the new session cookie must reach the root loader (header, role).
    if (result.ok) window.location.assign(result.redirectTo ?? "/");
    else setState({ busy: false, message: result.message });
  }
  return (
    <div className="mt-4">
      <Button type="button" variant="outline" className="w-full" disabled={state.busy} onClick={() => void run()}>
        {state.busy ? "Waiting for your passkey..." : label}
      </Button>
      <p role="alert" className="mt-2 min-h-5 text-sm text-red-700">
        {state.message}
      </p>
    </div>
  );
}
