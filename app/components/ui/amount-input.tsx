import type { ComponentProps } from "react";
import { Input } from "~/components/ui/input";
import { caretAfterFormat, digitsOnly, formatAmountInput } from "~/domain/formats";

/** The most digits an amount takes (under a trillion dollars: far above any loan we make). */
export const MAX_AMOUNT_DIGITS = 12;

/**
 * Whole dollars after a '$', with thousands separators added as you type ("50,000"). The caret stays
 * after the digit it followed; a keystroke that would pass MAX_AMOUNT_DIGITS is refused.
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
        inputMode="numeric"
        autoComplete={autoComplete}
        onChange={(event) => {
          const input = event.currentTarget;
          const raw = input.value;
          const caret = input.selectionStart ?? raw.length;
          const allDigits = digitsOnly(raw);
          // Refuse the keystroke; React puts the previous value back.
          if (allDigits.replace(/^0+(?=\d)/, "").length > MAX_AMOUNT_DIGITS) return;
          const formatted = formatAmountInput(raw);
          // Keep the caret after the same digit it followed (leading zeros that were dropped do not count).
          const droppedZeros = allDigits.length - digitsOnly(formatted).length;
          const digitsBefore = Math.max(0, digitsOnly(raw.slice(0, caret)).length - droppedZeros);
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
