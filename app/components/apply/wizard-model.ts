/**
 * Compatibility index while the wizard's other files move over (they are edited on other branches):
 * the wizard's pure logic now lives in files named for what they hold. Import from those directly.
 */
export * from "./wizard-values";
export * from "./wizard-steps";
export * from "./wizard-draft";
export * from "./wizard-submission";
export * from "./review-masks";
export * from "~/domain/calculator-link";
export { ACCOUNT_TYPE_LABELS, EMPLOYMENT_LABELS, LOAN_TYPE_LABELS, termLabel as durationLabel } from "~/domain/labels";
