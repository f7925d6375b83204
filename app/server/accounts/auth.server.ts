import { eq } from "drizzle-orm";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { getConfig } from "~/server/platform/config.server";
import { getDatabase, type Database } from "~/server/platform/db/client.server";
import * as schema from "~/server/platform/db/schema.server";
import { passkeySessionPlugin } from "./passkey-session-plugin.server";
import { hashPassword, verifyPassword } from "./password-hash.server";
import { revokeRecoveryLinks } from "./recovery-links.server";

/**
 * Better Auth owns sessions, credentials and password-reset tokens. Its HTTP endpoints are NOT
 * mounted: every flow goes through our own route actions (captcha, throttling, the e-mail-code gate,
 * origin checks) which call `auth.api.*` on the server. See docs/decisions/0007-accounts.md.
 */

export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;
/** Sessions slide (renewed at most once a day while used) but never outlive this. */
export const SESSION_ABSOLUTE_LIMIT_MS = 30 * 24 * 60 * 60 * 1000;
export const RESET_TOKEN_SECONDS = 60 * 60;

type AuthUser = { id: string; email: string; name: string };
export type AuthMailer = {
  sendResetLink: (data: { user: AuthUser; token: string }) => Promise<void>;
  sendPasswordChanged: (user: AuthUser) => Promise<void>;
};

let mailer: AuthMailer | undefined;

/** The account flows register how auth e-mails are queued (keeps mail out of this module's imports). */
export function setAuthMailer(value: AuthMailer): void {
  mailer = value;
}

function requireMailer(): AuthMailer {
  if (!mailer) throw new Error("No auth mailer registered (import ~/server/accounts/flows.server)");
  return mailer;
}

function createAuth(database: Database) {
  const config = getConfig();
  return betterAuth({
    appName: "Private Loans",
    baseURL: config.publicUrl,
    basePath: "/api/auth",
    secret: config.appSecret,
    telemetry: { enabled: false },
    database: drizzleAdapter(database.db, {
      provider: "pg",
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        twoFactor: schema.twoFactor,
        rateLimit: schema.rateLimit,
      },
    }),
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      password: { hash: hashPassword, verify: verifyPassword },
      resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: ({ user, token }) => requireMailer().sendResetLink({ user, token }),
      // A completed reset spent its own link; every other link and e-mail code issued before it goes too
      // (a second link in a shared or stolen inbox must not undo the owner's recovery).
      onPasswordReset: async ({ user }) => {
        await revokeRecoveryLinks(database.db, user.id);
        await requireMailer().sendPasswordChanged(user);
      },
    },
    session: {
      expiresIn: SESSION_MAX_AGE_SECONDS,
      updateAge: 24 * 60 * 60,
    },
    databaseHooks: {
      session: {
        create: {
          // A deactivated staff member gets no session by any path (sign-in, password reset);
          // Better Auth then answers as for a failed sign-in.
          // Nor does an applicant who closed their account.
          before: async (session) => {
            const [row] = await database.db
              .select({ deactivatedAt: schema.userRoles.deactivatedAt, closedAt: schema.profiles.closedAt })
              .from(schema.user)
              .leftJoin(schema.userRoles, eq(schema.userRoles.userId, schema.user.id))
              .leftJoin(schema.profiles, eq(schema.profiles.id, schema.user.id))
              .where(eq(schema.user.id, session.userId))
              .limit(1);
            return row?.deactivatedAt || row?.closedAt ? false : undefined;
          },
        },
      },
      user: {
        create: {
          // Every account has a profile (the admin client list and the dashboard greeting read it).
          after: async (created) => {
            await database.db
              .insert(schema.profiles)
              .values({ id: created.id, fullName: created.name, email: created.email.toLowerCase() })
              .onConflictDoNothing();
          },
        },
      },
    },
    plugins: [passkeySessionPlugin()],
    // Our own throttling (rate_limit_hits) covers every flow; Better Auth's HTTP limiter has no HTTP here.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: "pl",
      useSecureCookies: config.publicUrl.startsWith("https://"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", path: "/" },
      // Better Auth would read X-Forwarded-For whoever sent it; the session's address is written by us
      // from the client IP the Node entry resolved (TRUST_PROXY decides), at sign-in and on the account page.
      ipAddress: { disableIpTracking: true },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

const instances = new WeakMap<Database, Auth>();

/** One Better Auth instance per open database (tests open several). */
export function getAuth(database: Database = getDatabase()): Auth {
  let auth = instances.get(database);
  if (!auth) {
    auth = createAuth(database);
    instances.set(database, auth);
  }
  return auth;
}
