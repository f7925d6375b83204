import { z } from "zod";

/**
 * An admin's reveal of one sensitive value (POST /api/admin/reveal): what may be asked for, the
 * request body both sides agree on, and the messages the server answers and the page shows.
 * Pure, no I/O: the server (app/server/staff/reveal.server.ts) and the browser
 * (app/components/admin/clients/reveal-request.ts) import it.
 */

export const REVEAL_KINDS = ["ssn", "account_number", "routing_number"] as const;
export type RevealKind = (typeof REVEAL_KINDS)[number];

/** The body of POST /api/admin/reveal: the application id for 'ssn', the bank account id otherwise. */
export const revealRequestSchema = z.object({
  kind: z.enum(REVEAL_KINDS),
  id: z.uuid(),
});
export type RevealRequest = z.infer<typeof revealRequestSchema>;

/** The server's answers when it reveals nothing (title and message, shown as a toast). */
export const REVEAL_MESSAGES = {
  noSsn: { title: "No SSN Available", message: "This application does not have an SSN on file" },
  notFound: { title: "Error", message: "That record does not exist." },
  decryptFailed: { title: "Decryption Error", message: "Failed to decrypt" },
  auditFailed: { title: "Error", message: "The access could not be recorded, so the value was not revealed. Please try again." },
  invalid: { title: "Error", message: "Invalid reveal request." },
} as const;

/** The texts the page shows itself (the same words as the server's answers where they overlap). */
export const REVEAL_TEXT = {
  noSsnTitle: REVEAL_MESSAGES.noSsn.title,
  noSsnMessage: REVEAL_MESSAGES.noSsn.message,
  ssnRevealedTitle: "SSN Revealed",
  auditNote: "This access has been recorded in the audit log.",
  decryptionErrorTitle: REVEAL_MESSAGES.decryptFailed.title,
  decryptFailed: REVEAL_MESSAGES.decryptFailed.message,
  accessErrorTitle: "Access Error",
  genericMessage: "The value could not be revealed. Please try again.",
} as const;
