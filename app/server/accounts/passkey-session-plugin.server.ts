import type { BetterAuthPlugin } from "better-auth";
import { createAuthEndpoint } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import { z } from "zod";

/**
 * The one thing Better Auth does for a passkey sign-in: start a real session for an account our own
 * WebAuthn code has already verified, and set its cookie, exactly as a password sign-in does (same
 * table, same cookie, same database hook that refuses closed and deactivated accounts). Server-only:
 * never on an HTTP route (Better Auth's handler is not mounted anyway), reachable through
 * `auth.api.createPasskeySession` from app/server/accounts/passkey-sign-in.server.ts alone. Better Auth
 * 1.7's supported way for a plugin: `ctx.context.internalAdapter.createSession` + `setSessionCookie`.
 */
export function passkeySessionPlugin() {
  return {
    id: "passkey-session",
    endpoints: {
      createPasskeySession: createAuthEndpoint.serverOnly({ method: "POST", body: z.object({ userId: z.string().min(1).max(100) }) }, async (ctx) => {
        const user = await ctx.context.internalAdapter.findUserById(ctx.body.userId);
        if (!user) throw ctx.error("UNAUTHORIZED", { message: "No such account." });
        const session = await ctx.context.internalAdapter.createSession(user.id);
        // The session hook refused it (a closed account, a deactivated staff member).
        if (!session) throw ctx.error("UNAUTHORIZED", { message: "This account cannot sign in." });
        await setSessionCookie(ctx, { session, user });
        return ctx.json({ sessionId: session.id, userId: user.id });
      }),
    },
  } satisfies BetterAuthPlugin;
}
