import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, count, eq, gt, isNull, or, sql } from "drizzle-orm";
import { SECURITY_MESSAGES, type CredentialInput } from "~/domain/validation/account-security";
import { writeAudit, type AuditActor, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import type { Db, DbOrTx } from "~/server/platform/db/client.server";
import { passkeys, webauthnChallenges } from "~/server/platform/db/schema.server";
import { passkeyAddedEmail } from "~/server/accounts/account-settings-emails.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { site } from "~/content/site";
import { AppError, isAppError } from "~/server/platform/http/app-error.server";

/**
 * Passkeys (WebAuthn) with @simplewebauthn/server (decision 0041). The relying party is the public
 * URL's host and origin (PUBLIC_URL), never the request's Host header. Every ceremony starts with a
 * challenge stored here for five minutes and consumed by one conditional UPDATE: a challenge answers
 * one ceremony, once, for the account it was made for. A signature counter moves only forward, by one
 * conditional UPDATE, so a replayed or cloned assertion is refused even when two arrive together.
 */

export const CHALLENGE_SECONDS = 5 * 60;
export const MAX_PASSKEYS = 10;
type Purpose = "register" | "authenticate" | "second-factor";

export function relyingParty(): { rpID: string; origin: string; rpName: string } {
  const url = new URL(getConfig().publicUrl);
  return { rpID: url.hostname, origin: url.origin, rpName: site.name };
}

async function storeChallenge(db: DbOrTx, challenge: string, purpose: Purpose, userId: string | null): Promise<void> {
  await db.insert(webauthnChallenges).values({ challenge, purpose, userId, expiresAt: sql`now() + make_interval(secs => ${CHALLENGE_SECONDS})` });
}

/**
 * Uses up `challenge` for `purpose` and `userId` (null: a sign-in that has not named its account) in
 * one statement: of two requests carrying the same challenge, exactly one gets true.
 */
export async function consumeChallenge(db: DbOrTx, challenge: string, purpose: Purpose, userId: string | null): Promise<boolean> {
  const used = await db
    .update(webauthnChallenges)
    .set({ consumedAt: sql`now()` })
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, userId),
        isNull(webauthnChallenges.consumedAt),
        gt(webauthnChallenges.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: webauthnChallenges.id });
  return used.length === 1;
}

const toTransports = (list: readonly string[]) => list as AuthenticatorTransportFuture[];

/**
 * Add Passkey, step 1: creation options for the signed-in user (their existing passkeys excluded).
 * Call it only after a fresh proof (the password, or a current TOTP code: security.server.ts): step 2
 * consumes the challenge stored here, so no passkey is added without a proof made minutes before.
 */
export async function registrationOptions(db: Db, user: AuditActor) {
  const existing = await db.select({ id: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, user.id));
  if (existing.length >= MAX_PASSKEYS) throw new AppError("passkey", 409, SECURITY_MESSAGES.tooManyPasskeys);
  const { rpID, rpName } = relyingParty();
  const options = await generateRegistrationOptions({
    rpName,
    rpID,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user.id),
    attestationType: "none",
    excludeCredentials: existing.map((k) => ({ id: k.id, transports: toTransports(k.transports) })),
    // Discoverable, so Sign In with a Passkey needs no e-mail address; verification when the device can.
    authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "preferred" },
    timeout: CHALLENGE_SECONDS * 1000,
  });
  await storeChallenge(db, options.challenge, "register", user.id);
  return options;
}

/**
 * Add Passkey, step 2: verify the browser's answer and store the credential (never its private part:
 * there is none). The owner is e-mailed in the same transaction: a passkey signs in without the password.
 */
export async function registerPasskey(db: Db, name: string, credential: CredentialInput, { actor: user, request: info }: Caller) {
  const { rpID, origin } = relyingParty();
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response: credential as unknown as RegistrationResponseJSON,
      expectedChallenge: (challenge) => consumeChallenge(db, challenge, "register", user.id),
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
  } catch (error) {
    throw refusalFor(error);
  }
  if (!verification.verified) throw new AppError("passkey", 400, SECURITY_MESSAGES.passkeyRefused);
  const info2 = verification.registrationInfo;
  return db.transaction(async (tx) => {
    // The count and the insert under the user's own row lock: two tabs adding at once cannot pass 10.
    await tx.execute(sql`select id from "user" where id = ${user.id} for update`);
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, user.id));
    if (n >= MAX_PASSKEYS) throw new AppError("passkey", 409, SECURITY_MESSAGES.tooManyPasskeys);
    const [row] = await tx
      .insert(passkeys)
      .values({
        userId: user.id,
        credentialId: info2.credential.id,
        publicKey: Buffer.from(info2.credential.publicKey).toString("base64url"),
        counter: info2.credential.counter,
        transports: info2.credential.transports ?? [],
        deviceType: info2.credentialDeviceType,
        backedUp: info2.credentialBackedUp,
        name,
        aaguid: info2.aaguid,
      })
      .onConflictDoNothing({ target: passkeys.credentialId })
      .returning({ id: passkeys.id });
    if (!row) throw new AppError("passkey", 409, SECURITY_MESSAGES.duplicatePasskey);
    await writeAudit(tx, { actor: user, action: "passkey.add", table: "passkeys", recordId: row.id, details: { name, userVerified: info2.userVerified }, request: info });
    await enqueueEmail(tx, { to: user.email, ...passkeyAddedEmail({ name: user.name, passkeyName: name, addedAt: new Date(), baseUrl: getConfig().publicUrl }) });
    return { id: row.id };
  });
}

export async function removePasskey(db: Db, passkeyId: string, { actor: user, request: info }: Caller): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, user.id)))
      .returning({ id: passkeys.id, name: passkeys.name });
    if (!row) throw new AppError("passkey", 404, SECURITY_MESSAGES.passkeyNotFound);
    await writeAudit(tx, { actor: user, action: "passkey.remove", table: "passkeys", recordId: row.id, details: { name: row.name }, request: info });
  });
}

/**
 * Every passkey of `userId` goes, with any registration still under way (its challenge), in the
 * caller's transaction: after Change Password with "Also remove my passkeys", and after a staff Reset
 * Two-Factor (a passkey verified with PIN or biometrics stands in for the second factor, so it must not
 * outlive the factor it stands in for). One passkey.remove audit row per passkey, with the reason.
 */
export async function removeAllPasskeys(
  tx: DbOrTx,
  userId: string,
  reason: "password-change" | "staff-mfa-reset",
  { actor, request: info }: Caller,
): Promise<{ id: string; name: string }[]> {
  const removed = await tx.delete(passkeys).where(eq(passkeys.userId, userId)).returning({ id: passkeys.id, name: passkeys.name });
  await tx.delete(webauthnChallenges).where(and(eq(webauthnChallenges.userId, userId), eq(webauthnChallenges.purpose, "register")));
  for (const key of removed) {
    await writeAudit(tx, { actor, action: "passkey.remove", table: "passkeys", recordId: key.id, details: { name: key.name, reason, owner: userId }, request: info });
  }
  return removed;
}

/**
 * Request options: for a sign-in, no account is named (the authenticator offers its discoverable
 * passkeys for this site); for a signed-in session's second factor, only that user's passkeys, and
 * user verification is required.
 */
export async function authenticationOptions(db: Db, purpose: "authenticate" | "second-factor", userId: string | null) {
  const { rpID } = relyingParty();
  const allow =
    purpose === "second-factor" && userId
      ? (await db.select({ id: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, userId))).map((k) => ({
          id: k.id,
          transports: toTransports(k.transports),
        }))
      : [];
  if (purpose === "second-factor" && allow.length === 0) throw new AppError("passkey", 409, SECURITY_MESSAGES.passkeyUnknown);
  const options = await generateAuthenticationOptions({
    rpID,
    allowCredentials: allow,
    userVerification: purpose === "second-factor" ? "required" : "preferred",
    timeout: CHALLENGE_SECONDS * 1000,
  });
  await storeChallenge(db, options.challenge, purpose, purpose === "second-factor" ? userId : null);
  return options;
}

export type VerifiedAssertion = { passkeyId: string; userId: string; name: string; userVerified: boolean };

/**
 * Verifies an assertion: the credential must be registered (and, for a second factor, the signed-in
 * user's), the challenge unused, the signature good, and the counter must move forward. Authenticators
 * without a counter always report 0; for them the single-use challenge is the replay guard.
 */
export async function verifyAssertion(
  db: Db,
  credential: CredentialInput,
  purpose: "authenticate" | "second-factor",
  userId: string | null,
): Promise<VerifiedAssertion> {
  const [stored] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credential.id)).limit(1);
  if (!stored || (purpose === "second-factor" && stored.userId !== userId)) throw new AppError("passkey", 400, SECURITY_MESSAGES.passkeyUnknown);
  if (credential.response.userHandle && Buffer.from(credential.response.userHandle, "base64url").toString("utf8") !== stored.userId) {
    throw new AppError("passkey", 400, SECURITY_MESSAGES.passkeyUnknown);
  }
  const { rpID, origin } = relyingParty();
  let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    result = await verifyAuthenticationResponse({
      response: credential as unknown as AuthenticationResponseJSON,
      expectedChallenge: (challenge) => consumeChallenge(db, challenge, purpose, purpose === "second-factor" ? userId : null),
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: { id: stored.credentialId, publicKey: Buffer.from(stored.publicKey, "base64url"), counter: stored.counter, transports: toTransports(stored.transports) },
      requireUserVerification: purpose === "second-factor",
    });
  } catch (error) {
    throw refusalFor(error);
  }
  if (!result.verified) throw new AppError("passkey", 400, SECURITY_MESSAGES.passkeyRefused);
  const next = result.authenticationInfo.newCounter;
  const bumped = await db
    .update(passkeys)
    .set({ counter: next, lastUsedAt: sql`now()` })
    .where(and(eq(passkeys.id, stored.id), or(sql`${passkeys.counter} < ${next}`, and(eq(passkeys.counter, 0), sql`${next}::bigint = 0`))))
    .returning({ id: passkeys.id });
  if (bumped.length === 0) throw new AppError("passkey", 400, SECURITY_MESSAGES.passkeyRefused);
  return { passkeyId: stored.id, userId: stored.userId, name: stored.name, userVerified: result.authenticationInfo.userVerified };
}

/** The library throws for every failed check; the reasons stay in the server, the user gets one message. */
function refusalFor(error: unknown): AppError {
  if (isAppError(error, "passkey")) return error;
  const message = error instanceof Error ? error.message : "";
  if (/challenge/i.test(message)) return new AppError("passkey", 400, SECURITY_MESSAGES.challengeUsed);
  if (/user verification/i.test(message)) return new AppError("passkey", 400, SECURITY_MESSAGES.passkeyNeedsVerification);
  return new AppError("passkey", 400, SECURITY_MESSAGES.passkeyRefused);
}
