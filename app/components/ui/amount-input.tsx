import type { ComponentProps } from "react";
import { Input } from "~/components/ui/input";
import { caretAfterFormat, digitsOnly, formatAmountInput } from "~/domain/formats";

/** The most digits an amount takes (under a trillion dollars: far above any loan we make). */
export const MAX_AMOUNT_DIGITS = 12;

/** Digits and decimal points: what the caret is kept after when the value is reformatted. */
const significant = (text: string) => text.replace(/[^\d.]+/g, "");

/**
 * Dollars after a '$', with thousands separators added as you type ("50,000"). A decimal point and up to
 * two digits after it stay as typed ("12,345.67"): the field's own rule says whether cents are allowed,
 * the input never turns them into dollars. The caret stays after the character it followed; a keystroke
 * that would pass MAX_AMOUNT_DIGITS dollars, a second decimal point or a third decimal is refused.
 */
export function AmountInput({
  onValue,
  autoComplete = "off",
  ...props
}: Omit<ComponentProps<"input">, "type" | "value" | "onChange" | "className"> & { value: string; onValue: (formatted: string) => void }) {
  return (
    <div className="relative">
      <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-muted-foreground">
        $
      </span>
      <Input
        {...props}
        type="text"
        inputMode="decimal"
        autoComplete={autoComplete}
        onChange={(event) => {
          const input = event.currentTarget;
          const raw = input.value;
          const caret = input.selectionStart ?? raw.length;
          const [dollars = "", ...fractions] = raw.split(".");
          // Refuse the keystroke; React puts the previous value back.
          if (digitsOnly(dollars).replace(/^0+(?=\d)/, "").length > MAX_AMOUNT_DIGITS) return;
          if (fractions.length > 1 || digitsOnly(fractions[0] ?? "").length > 2) return;
          const formatted = formatAmountInput(raw);
          // Keep the caret after the same character it followed (dropped leading zeros, an added "0." do not count).
          const dropped = significant(raw).length - significant(formatted).length;
          const digitsBefore = Math.max(0, significant(raw.slice(0, caret)).length - dropped);
          const position = caretAfterFormat(formatted, digitsBefore);
          // Write the formatted value ourselves so React, finding the DOM already right, leaves the caret alone.
          input.value = formatted;
          if (document.activeElement === input) input.setSelectionRange(position, position);
          onValue(formatted);
        }}
        className="pl-7"
      />
    </div>
  );
}
