import { APPLICATION_STATUSES, DECIDED_APPLICATION_STATUSES, type ApplicationStatus, type ApprovedLoanStatus } from "./enums";

/**
 * The loan application's status lifecycle as one state machine: its states, the transitions allowed
 * between them, and who may make each. Every service that changes a status asks this module which
 * transition it is making (`transitionFor`) and writes it as a conditional UPDATE
 * (`… SET status = to WHERE id = $1 AND status = from`): the machine decides what is allowed, the
 * database's row lock decides who wins when two people try at once. New work (offers, servicing,
 * document requests) adds states and transitions here instead of scattering `status === …` checks.
 * Pure, no I/O.
 */

/** Who makes a transition. */
export type LifecycleRole =
  /** The signed-in applicant, for their own application. */
  | "applicant"
  /** An admin whose session passed the second factor (requireAdmin refuses anyone else). */
  | "verified-admin";

/** What the machine needs to know about the person acting. */
export type LifecycleActor = { isAdmin: boolean; mfaVerified: boolean };

export type ApplicationEvent = "submit" | "approve" | "deny";

export type ApplicationTransition = {
  event: ApplicationEvent;
  /** null: the application does not exist yet. */
  from: ApplicationStatus | null;
  to: ApplicationStatus;
  by: LifecycleRole;
};

export const APPLICATION_TRANSITIONS = [
  { event: "submit", from: null, to: "pending", by: "applicant" },
  { event: "approve", from: "pending", to: "approved", by: "verified-admin" },
  { event: "deny", from: "pending", to: "denied", by: "verified-admin" },
] as const satisfies readonly ApplicationTransition[];

/** The status a new application starts in. */
export const INITIAL_APPLICATION_STATUS = "pending" satisfies ApplicationStatus;

/** The one transition an event makes (each event has exactly one; the unit test checks it). */
export function transitionFor<E extends ApplicationEvent>(event: E): Extract<(typeof APPLICATION_TRANSITIONS)[number], { event: E }> {
  const found = APPLICATION_TRANSITIONS.find((t) => t.event === event);
  if (!found) throw new Error(`no transition for ${event}`);
  return found as Extract<(typeof APPLICATION_TRANSITIONS)[number], { event: E }>;
}

/** Whether `event` may happen to an application in status `from` (null: not created yet). */
export function canTransition(from: ApplicationStatus | null, event: ApplicationEvent): boolean {
  return APPLICATION_TRANSITIONS.some((t) => t.event === event && t.from === from);
}

/** The events an application in this status allows (what an admin's screen may offer). */
export function eventsFrom(status: ApplicationStatus): ApplicationEvent[] {
  return APPLICATION_TRANSITIONS.filter((t) => t.from === status).map((t) => t.event);
}

/** Whether this person may make the event's transition (ownership is the caller's check). */
export function mayMake(event: ApplicationEvent, actor: LifecycleActor): boolean {
  const { by } = transitionFor(event);
  return by === "verified-admin" ? actor.isAdmin && actor.mfaVerified : true;
}

/** A decided application (approved or denied): no transition leaves it. */
export function isDecided(status: string): boolean {
  return (DECIDED_APPLICATION_STATUSES as readonly string[]).includes(status);
}

/** States no transition leaves. */
export function terminalStatuses(): ApplicationStatus[] {
  return APPLICATION_STATUSES.filter((s) => !APPLICATION_TRANSITIONS.some((t) => t.from === s));
}

/** Approved-loan statuses that count as a current loan (shown as "Approved" on the dashboard). */
export const CURRENT_LOAN_STATUSES = ["active", "approved"] as const satisfies readonly ApprovedLoanStatus[];

export function isCurrentLoan(status: string): boolean {
  return (CURRENT_LOAN_STATUSES as readonly string[]).includes(status);
}
