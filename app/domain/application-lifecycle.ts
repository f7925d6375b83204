import { APPLICATION_STATUSES, DECIDED_APPLICATION_STATUSES, type ApplicationStatus, type ApprovedLoanStatus } from "./enums";

/**
 * The loan application's status lifecycle as one state machine: its states, the transitions allowed
 * between them, and who may make each. Every service that changes a status asks this module which
 * transition it is making (`transitionFor`) and writes it as a conditional UPDATE
 * (`… SET status = to WHERE id = $1 AND status IN (from)`): the machine decides what is allowed, the
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
export type LifecycleActor = { isStaff: boolean; mfaVerified: boolean };

export type ApplicationEvent = "submit" | "start-review" | "approve" | "deny" | "close-incomplete" | "withdraw";

export type ApplicationTransition = {
  event: ApplicationEvent;
  /** The statuses the event may leave; null: the application does not exist yet. */
  from: readonly (ApplicationStatus | null)[];
  to: ApplicationStatus;
  by: LifecycleRole;
};

/** Statuses in which staff are still reviewing: documents can be requested, messages exchanged. */
export const OPEN_REVIEW_STATUSES = ["pending", "under_review"] as const satisfies readonly ApplicationStatus[];

export const APPLICATION_TRANSITIONS = [
  { event: "submit", from: [null], to: "pending", by: "applicant" },
  { event: "start-review", from: ["pending"], to: "under_review", by: "verified-admin" },
  { event: "approve", from: OPEN_REVIEW_STATUSES, to: "approved", by: "verified-admin" },
  { event: "deny", from: OPEN_REVIEW_STATUSES, to: "denied", by: "verified-admin" },
  // Reg B (12 CFR 1002.9(c)): after the notice of incompleteness's date has passed.
  { event: "close-incomplete", from: OPEN_REVIEW_STATUSES, to: "incomplete", by: "verified-admin" },
  // Withdraw Application: the applicant ends it before a decision (Reg B 12 CFR 1002.9(e): no notice owed).
  { event: "withdraw", from: OPEN_REVIEW_STATUSES, to: "withdrawn", by: "applicant" },
] as const satisfies readonly ApplicationTransition[];

/** The status a new application starts in. */
export const INITIAL_APPLICATION_STATUS = "pending" satisfies ApplicationStatus;

/** The one transition an event makes (each event has exactly one; the unit test checks it). */
export function transitionFor<E extends ApplicationEvent>(event: E): Extract<(typeof APPLICATION_TRANSITIONS)[number], { event: E }> {
  const found = APPLICATION_TRANSITIONS.find((t) => t.event === event);
  if (!found) throw new Error(`no transition for ${event}`);
  return found as Extract<(typeof APPLICATION_TRANSITIONS)[number], { event: E }>;
}

/**
 * The statuses an event may leave, for a conditional UPDATE (`… WHERE status IN (from)`). Never
 * null: only 'submit' starts from nothing, and it inserts.
 */
export function fromStatuses(event: Exclude<ApplicationEvent, "submit">): ApplicationStatus[] {
  const from: readonly (ApplicationStatus | null)[] = transitionFor(event).from;
  return from.filter((s): s is ApplicationStatus => s !== null);
}

/** Whether `event` may happen to an application in status `from` (null: not created yet). */
export function canTransition(from: ApplicationStatus | null, event: ApplicationEvent): boolean {
  return APPLICATION_TRANSITIONS.some((t) => t.event === event && (t.from as readonly (ApplicationStatus | null)[]).includes(from));
}

/** The events an application in this status allows; with `by`, only those that role makes (what an admin's screen may offer). */
export function eventsFrom(status: ApplicationStatus, by?: LifecycleRole): ApplicationEvent[] {
  return APPLICATION_TRANSITIONS.filter((t) => (t.from as readonly (ApplicationStatus | null)[]).includes(status) && (by === undefined || t.by === by)).map(
    (t) => t.event,
  );
}

/** Whether the application is still being reviewed (requests, replies and messages are open). */
export function isOpenForReview(status: string): boolean {
  return (OPEN_REVIEW_STATUSES as readonly string[]).includes(status);
}

/**
 * Whether this person may make the event's transition (ownership is the caller's check). An
 * applicant's event is the applicant's own: staff do not submit or withdraw on someone's behalf here.
 */
export function mayMake(event: ApplicationEvent, actor: LifecycleActor): boolean {
  const { by } = transitionFor(event);
  return by === "verified-admin" ? actor.isStaff && actor.mfaVerified : !actor.isStaff;
}

/** A decided application (approved, denied or closed as incomplete): no transition leaves it. */
export function isDecided(status: string): boolean {
  return (DECIDED_APPLICATION_STATUSES as readonly string[]).includes(status);
}

/** States no transition leaves. */
export function terminalStatuses(): ApplicationStatus[] {
  return APPLICATION_STATUSES.filter((s) => eventsFrom(s).length === 0);
}

/** Approved-loan statuses that count as a current loan (shown as "Approved" on the dashboard). */
export const CURRENT_LOAN_STATUSES = ["awaiting_funding", "active", "approved"] as const satisfies readonly ApprovedLoanStatus[];

export function isCurrentLoan(status: string): boolean {
  return (CURRENT_LOAN_STATUSES as readonly string[]).includes(status);
}
