import { describe, expect, it } from "vitest";
import { APPLICATION_STATUSES, APPROVED_LOAN_STATUSES } from "~/domain/enums";
import { OFFER_STATUSES } from "~/domain/loan-offers";
import {
  APPLICATION_NEXT_STEPS,
  COUNTEROFFER_NEXT_STEP,
  DOCUMENTS_REQUESTED_NEXT_STEP,
  DRAFT_NEXT_STEP,
  LOAN_NEXT_STEPS,
  nextStep,
  OFFER_NEXT_STEPS,
} from "~/domain/next-step";

const SPECIALIST = "A loan specialist will contact you to sign your loan terms";

describe("nextStep: a true next step for every status", () => {
  // Walks the schema's own lists: a status added there without its own text here fails below
  // (the Records also refuse to compile without it).
  it.each(APPLICATION_STATUSES.map((s) => [s]))("application %s has its own text", (status) => {
    const text = nextStep({ kind: "application", status, offer: null, openRequests: 0 });
    expect(text).toBe(APPLICATION_NEXT_STEPS[status]);
    expect(text.length).toBeGreaterThan(20);
    expect(text).not.toContain(SPECIALIST);
  });

  it.each(OFFER_STATUSES.map((s) => [s]))("approved application with an offer %s has its own text", (status) => {
    const text = nextStep({ kind: "application", status: "approved", offer: { status, isCounteroffer: false }, openRequests: 0 });
    expect(text).toBe(OFFER_NEXT_STEPS[status]);
    expect(text).not.toContain(SPECIALIST);
  });

  it.each(APPROVED_LOAN_STATUSES.map((s) => [s]))("loan %s has its own text", (status) => {
    const text = nextStep({ kind: "loan", status, signedInPortal: true });
    expect(text.length).toBeGreaterThan(20);
    expect(text).not.toContain(SPECIALIST);
    expect(Object.keys(LOAN_NEXT_STEPS)).toContain(status);
  });

  it("no two statuses of a list share a text, so each says something of its own", () => {
    for (const table of [APPLICATION_NEXT_STEPS, OFFER_NEXT_STEPS, LOAN_NEXT_STEPS]) {
      const texts = Object.values(table);
      expect(new Set(texts).size).toBe(texts.length);
    }
    expect(Object.keys(APPLICATION_NEXT_STEPS).sort()).toEqual([...APPLICATION_STATUSES].sort());
    expect(Object.keys(OFFER_NEXT_STEPS).sort()).toEqual([...OFFER_STATUSES].sort());
    expect(Object.keys(LOAN_NEXT_STEPS).sort()).toEqual([...APPROVED_LOAN_STATUSES].sort());
  });

  it("a signed borrower is never told a specialist will contact them to sign", () => {
    expect(nextStep({ kind: "loan", status: "active", signedInPortal: true })).toMatch(/agreement is signed/);
    expect(nextStep({ kind: "loan", status: "approved", signedInPortal: true })).toMatch(/agreement is signed/);
    expect(nextStep({ kind: "application", status: "approved", offer: { status: "signed", isCounteroffer: false }, openRequests: 0 })).toMatch(/agreement is signed/);
  });

  it("only a loan recorded before in-portal signing keeps the specialist's call", () => {
    expect(nextStep({ kind: "loan", status: "approved", signedInPortal: false })).toContain(SPECIALIST);
  });

  it("requested documents come first while the review is open, not after a decision", () => {
    expect(nextStep({ kind: "application", status: "pending", offer: null, openRequests: 2 })).toBe(DOCUMENTS_REQUESTED_NEXT_STEP);
    expect(nextStep({ kind: "application", status: "under_review", offer: null, openRequests: 1 })).toBe(DOCUMENTS_REQUESTED_NEXT_STEP);
    expect(nextStep({ kind: "application", status: "denied", offer: null, openRequests: 1 })).toBe(APPLICATION_NEXT_STEPS.denied);
  });

  it("an open counteroffer says it differs from the request; a signed one does not", () => {
    expect(nextStep({ kind: "application", status: "approved", offer: { status: "offered", isCounteroffer: true }, openRequests: 0 })).toBe(COUNTEROFFER_NEXT_STEP);
    expect(nextStep({ kind: "application", status: "approved", offer: { status: "signed", isCounteroffer: true }, openRequests: 0 })).toBe(OFFER_NEXT_STEPS.signed);
  });

  it("paid off, closed, declined, withdrawn and expired say what is left (nothing, or a message)", () => {
    expect(nextStep({ kind: "loan", status: "paid_off", signedInPortal: true })).toMatch(/paid in full; nothing more to do/);
    expect(nextStep({ kind: "loan", status: "closed", signedInPortal: true })).toMatch(/closed; nothing more to do/);
    expect(nextStep({ kind: "application", status: "withdrawn", offer: null, openRequests: 0 })).toMatch(/You withdrew/);
    expect(nextStep({ kind: "application", status: "approved", offer: { status: "expired", isCounteroffer: false }, openRequests: 0 })).toMatch(/expired/);
    expect(nextStep({ kind: "draft" })).toBe(DRAFT_NEXT_STEP);
  });
});
