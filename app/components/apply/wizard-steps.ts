import {
  APPLICATION_MESSAGES,
  bankInfoSchema,
  DOCUMENT_FIELDS,
  financialInfoSchema,
  loanDetailsSchema,
  personalInfoSchema,
  SIGNATURE_FIELD,
  STEP_SCHEMAS,
  termsSchema,
  type DocumentField,
} from "~/domain/validation/application";
import { firstFieldError, issuesToFieldErrors, type IssueLike } from "~/domain/validation/field-errors";
import { schemaInput, type WizardValues } from "./wizard-values";

/** The wizard's five steps and what each one checks (with the shared schemas) before moving on. */

export const STEP_COUNT = 5;
export type StepNumber = 1 | 2 | 3 | 4 | 5;

export const STEP_TITLES = STEP_SCHEMAS.map((s) => s.title) as readonly string[];

export function isStepNumber(value: unknown): value is StepNumber {
  return value === 1 || value === 2 || value === 3 || value === 4 || value === 5;
}

export type FieldErrors = Partial<Record<string, string>>;
export type StepCheck = { ok: true } | { ok: false; errors: FieldErrors; first: { field: string; message: string } };

const STEP_SCHEMA_BY_NUMBER = {
  1: personalInfoSchema,
  2: loanDetailsSchema,
  3: financialInfoSchema,
  4: bankInfoSchema,
  5: termsSchema,
} as const;

type SafeParser = { safeParse: (input: unknown) => { success: boolean; error?: { issues: IssueLike[] } } };

/**
 * Runs one step's schema: the first message of each field, and the first problem overall. `kept`
 * names sensitive fields a saved draft holds: left blank, they keep the stored value.
 */
export function checkSchemaStep(step: StepNumber, values: WizardValues, kept: readonly string[] = []): StepCheck {
  const schema = STEP_SCHEMA_BY_NUMBER[step] as unknown as SafeParser;
  const input = schemaInput(values);
  const result = schema.safeParse(input);
  if (result.success || !result.error) return { ok: true };
  const messages = issuesToFieldErrors(result.error);
  for (const field of kept) if (!input[field]) delete messages[field];
  if (Object.keys(messages).length === 0) return { ok: true };
  const errors: FieldErrors = Object.fromEntries(Object.entries(messages).map(([field, list]) => [field, list[0]]));
  // Fields are listed in the order of their first issue, so the first of them is the first problem.
  return { ok: false, errors, first: firstFieldError(messages, Object.keys(messages))! };
}

export type DocumentFiles = Partial<Record<DocumentField, { name: string; size: number }>>;

/** Step 4's first check: every required document is attached. */
export function checkDocuments(files: DocumentFiles): StepCheck {
  const missing = DOCUMENT_FIELDS.filter((d) => d.required && !files[d.field]).map((d) => d.field);
  if (missing.length === 0) return { ok: true };
  const errors: FieldErrors = Object.fromEntries(missing.map((f) => [f, APPLICATION_MESSAGES.documents]));
  return { ok: false, errors, first: { field: missing[0]!, message: APPLICATION_MESSAGES.documents } };
}

/** Which step a field (as the schemas and the server name it) is entered on. */
export function stepOfField(field: string): StepNumber | null {
  if (field in personalInfoSchema.shape) return 1;
  if (field in loanDetailsSchema.shape) return 2;
  if (field in financialInfoSchema.shape) return 3;
  if (field in bankInfoSchema.shape || DOCUMENT_FIELDS.some((d) => d.field === field)) return 4;
  if (field in termsSchema.shape || field === SIGNATURE_FIELD) return 5;
  return null;
}

