import type { ReactNode } from "react";
import { Button, type ButtonProps } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";

/** A button that is disabled while its action runs, its icon turned into a spinner meanwhile. */
export function PendingButton({ pending, icon, children, ...props }: ButtonProps & { pending: boolean; icon: ReactNode }) {
  return (
    <Button {...props} disabled={pending}>
      {pending ? <Spinner className="size-4" /> : icon}
      {children}
    </Button>
  );
}
