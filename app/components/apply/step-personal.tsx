import { formatPhone, formatSsn } from "~/domain/formats";
import { US_STATES } from "~/domain/validation/application";
import { DateOfBirth } from "./date-of-birth";
import { digitsUpTo } from "./fields";
import { StepFields, type FieldSpec } from "./step-fields";
import type { StepProps } from "./step-types";

const STATE_OPTIONS = US_STATES.map((code) => ({ value: code, label: code }));

const NAME_FIELDS: readonly FieldSpec[] = [
  { kind: "text", name: "firstName", label: "First Name", required: true, autoComplete: "given-name", maxLength: 50 },
  { kind: "text", name: "middleInitial", label: "Middle Initial", autoComplete: "additional-name", maxLength: 1, transform: (v) => v.slice(0, 1).toUpperCase() },
  { kind: "text", name: "lastName", label: "Last Name", required: true, autoComplete: "family-name", maxLength: 50 },
];

const CONTACT_FIELDS: readonly FieldSpec[] = [
  { kind: "text", name: "email", label: "Email", required: true, type: "email", autoComplete: "email", maxLength: 254, className: "sm:col-span-6" },
  {
    kind: "text",
    name: "phone",
    label: "Phone",
    required: true,
    type: "tel",
    inputMode: "tel",
    autoComplete: "tel",
    hint: "10 digits, for example 302 555 0199.",
    maxLength: 14,
    transform: formatPhone,
    className: "sm:col-span-6",
  },
];

const SSN_AND_ADDRESS_FIELDS: readonly FieldSpec[] = [
  {
    kind: "masked",
    name: "ssn",
    what: "Social Security Number",
    label: "Social Security Number",
    required: false,
    placeholder: "XXX-XX-XXXX",
    maxLength: 11,
    transform: formatSsn,
    hint: "Encrypted before it is stored. Never saved in your browser.",
    className: "sm:col-span-6",
  },
  { kind: "text", name: "addressLine1", label: "Address Line 1", required: true, autoComplete: "address-line1", maxLength: 200, className: "sm:col-span-12" },
  { kind: "text", name: "addressLine2", label: "Address Line 2", autoComplete: "address-line2", maxLength: 200, className: "sm:col-span-12" },
  { kind: "text", name: "city", label: "City", required: true, autoComplete: "address-level2", maxLength: 100, className: "sm:col-span-5" },
  { kind: "select", name: "state", label: "State", required: true, autoComplete: "address-level1", placeholder: "Select", options: STATE_OPTIONS, className: "sm:col-span-3" },
  {
    kind: "text",
    name: "zipCode",
    label: "ZIP Code",
    required: true,
    inputMode: "numeric",
    autoComplete: "postal-code",
    maxLength: 5,
    transform: digitsUpTo(5),
    className: "sm:col-span-4",
  },
];

/** Step 1: who is applying (docs/requirements.md §4 Personal, §5 step 1). */
export function PersonalInfoStep(props: StepProps) {
  return (
    <div className="grid gap-x-4 gap-y-3 sm:grid-cols-12">
      {/* First, middle initial and last name share a row (the initial's column just fits its label). */}
      <div className="grid gap-x-4 gap-y-3 sm:col-span-12 sm:grid-cols-[minmax(0,1fr)_6.75rem_minmax(0,1fr)]">
        <StepFields {...props} fields={NAME_FIELDS} />
      </div>
      <StepFields {...props} fields={CONTACT_FIELDS} />
      <DateOfBirth {...props} />
      <StepFields {...props} fields={SSN_AND_ADDRESS_FIELDS} />
    </div>
  );
}
