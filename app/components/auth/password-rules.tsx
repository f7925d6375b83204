import { Check, Circle } from "lucide-react";
import { checkPasswordRules } from "~/domain/validation/password-rules";
import { cn } from "~/utils/cn";

/** The password rules as a live checklist (also the password field's description). */
export function PasswordRules({ password }: { password: string }) {
  return (
    <ul className="grid gap-0.5 sm:grid-cols-2">
      {checkPasswordRules(password).map((rule) => (
        <li key={rule.id} className={cn("flex items-start gap-1.5", rule.id === "special" && "sm:col-span-2", rule.met && "text-green-800")}>
          {rule.met ? (
            <Check aria-hidden="true" className="mt-px size-3.5 shrink-0" />
          ) : (
            <Circle aria-hidden="true" className="mt-px size-3.5 shrink-0" />
          )}
          <span>
            {rule.label}
            {rule.met ? <span className="sr-only"> (done)</span> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
