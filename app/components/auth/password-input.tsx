import { Eye, EyeOff } from "lucide-react";
import { useState, type ComponentProps } from "react";
import { Input } from "~/components/ui/input";
import { cn } from "~/utils/cn";

/**
 * A password field with a show/hide toggle. The toggle is a real button after the input (reached with
 * Tab), names what it will do ('Show password' / 'Hide password'), reports its state with aria-pressed
 * and controls the input. Never a submit button.
 */
export function PasswordInput({ className, id, ...props }: Omit<ComponentProps<"input">, "type">) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Input id={id} type={visible ? "text" : "password"} className={cn("pr-11", className)} spellCheck={false} autoCapitalize="none" {...props} />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        aria-label={visible ? "Hide password" : "Show password"}
        aria-pressed={visible}
        aria-controls={id}
        className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-md text-muted-foreground hover:text-primary focus-visible:outline-3 focus-visible:-outline-offset-3"
      >
        {visible ? <EyeOff aria-hidden="true" className="size-4" /> : <Eye aria-hidden="true" className="size-4" />}
      </button>
    </div>
  );
}
