import { randomUUID } from "node:crypto";
import type { ChargeOffIntent } from "~/domain/validation/charge-off";
import type { ProtectionIntent } from "~/domain/validation/loan-protections";

/**
 * Well-formed bodies of every charge-off and protection intent, for the authorization matrix and the
 * hostile suites: each passes its schema, so what answers is the authorization and the loan's existence.
 * `today` is 'yyyy-MM-dd' (UTC).
 */
export const MATRIX_CHARGE_OFF_BODIES = (today: string): ({ intent: ChargeOffIntent } & Record<string, string>)[] => [
  { intent: "charge-off", reason: "Borrower unreachable for 120 days" },
  { intent: "approve-charge-off", requestId: randomUUID() },
  { intent: "reject-charge-off", requestId: randomUUID() },
  { intent: "settle", amount: "1000.00", receivedOn: today, method: "wire", reference: "SETTLE-1" },
];

export const MATRIX_PROTECTION_BODIES = (today: string): ({ intent: ProtectionIntent } & Record<string, string>)[] => [
  { intent: "record-protection", kind: "servicemember", startsOn: today, reference: "Orders 26-0001" },
  { intent: "end-protection", protectionId: randomUUID(), endsOn: today },
];
