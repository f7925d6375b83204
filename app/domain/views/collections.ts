import type { ContactChannel, ContactOutcome, PromiseStatus, ProtectionKind } from "~/domain/collections-enums";
import type { DelinquencyBucket } from "~/domain/delinquency";
import type { CollectionsFilter } from "~/domain/validation/collections";

/** What the collections queue and the loan's Collections panel show. Plain data, safe in the browser. */

/** The next thing to do on a loan: the latest contact's planned action, or an open promise's day. */
export type NextAction = { kind: "action"; text: string; on: string | null } | { kind: "promise"; amountCents: number; on: string };

export type CollectionsQueueRow = {
  loanId: string;
  reference: string;
  borrowerName: string;
  nextDueDate: string;
  daysPastDue: number;
  bucket: DelinquencyBucket;
  bucketLabel: string;
  amountDueCents: number;
  lastContact: { at: string; channel: ContactChannel; channelLabel: string; outcomeLabel: string } | null;
  nextAction: NextAction | null;
  collector: { id: string; name: string } | null;
  contactStopped: boolean;
  brokenPromise: boolean;
  proposedForChargeOff: boolean;
};

export type CollectionsQueue = {
  today: string;
  filter: CollectionsFilter;
  rows: CollectionsQueueRow[];
  /** The token of the page after this one (null: this is the last). */
  next: string | null;
  /** Whether this page is a later one (a link back to the first is shown). */
  paged: boolean;
  chargeOffDays: number;
  viewerId: string;
};

export type CollectionContactView = {
  id: string;
  at: string;
  channel: ContactChannel;
  channelLabel: string;
  outcome: ContactOutcome;
  outcomeLabel: string;
  note: string | null;
  nextAction: string | null;
  nextActionOn: string | null;
  staffName: string;
};

export type PaymentPromiseView = {
  id: string;
  amountCents: number;
  promisedOn: string;
  status: PromiseStatus;
  statusLabel: string;
  createdAt: string;
  staffName: string;
};

export type CollectionsPanelData = {
  loanId: string;
  /** Whether Log Contact and Promise to Pay are offered (an active loan whose borrower is not protected). */
  workable: boolean;
  /** Why not, when the loan is active but contact has stopped (a protection), for the panel to say. */
  stoppedBecause: { kind: ProtectionKind; label: string } | null;
  daysPastDue: number;
  bucketLabel: string;
  collector: { id: string; name: string } | null;
  viewerId: string;
  /** The borrower's local time now and the zone it comes from ("3:42 PM EST", "America/New_York", "NY"). */
  borrowerClock: { text: string; timeZone: string; state: string | null; withinHours: boolean };
  contacts: CollectionContactView[];
  promises: PaymentPromiseView[];
  today: string;
};
