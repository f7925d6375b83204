import { X } from "lucide-react";
import { Dialog } from "radix-ui";
import type { ReactNode } from "react";
import { Button, type ButtonProps } from "~/components/ui/button";
import type { IconComponent } from "~/components/ui/inline-icon";
import { cn } from "~/utils/cn";

const WIDTH = { lg: "max-w-lg", "4xl": "max-w-4xl" } as const;

/**
 * The app's modal dialog: an overlay, a card centred in the viewport (scrolling when taller than it), a
 * title with its description and a 'Close' icon button. Radix traps focus inside, closes on Escape and
 * gives focus back to the trigger on close, unless `onCloseFocus` takes over (when the opener may be
 * gone by then). The card keeps clear of the bottom 9rem of the viewport, where toasts appear (see
 * Toaster): a toast raised from inside a dialog (a link generated, a download started) never covers
 * the dialog's buttons, at 1280×800 as on a phone. Pass `trigger` for a dialog that
 * opens itself (or `opener`: a button with an icon that says the dialog's title), or `open`/`onOpenChange`
 * to control it.
 */
export function ModalDialog({
  open,
  onOpenChange,
  trigger,
  opener,
  onCloseFocus,
  title,
  description,
  descriptionClassName,
  width = "lg",
  testId,
  children,
}: {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  trigger?: ReactNode;
  opener?: ButtonProps & { icon: IconComponent };
  onCloseFocus?: () => void;
  title: ReactNode;
  description: ReactNode;
  descriptionClassName?: string;
  width?: keyof typeof WIDTH;
  testId: string;
  children: ReactNode;
}) {
  const opening = trigger ?? (opener ? <OpenerButton {...opener} label={title} /> : null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      {opening ? <Dialog.Trigger asChild>{opening}</Dialog.Trigger> : null}
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-navy-950/60" />
        <Dialog.Content
          data-testid={testId}
          onCloseAutoFocus={
            onCloseFocus
              ? (event) => {
                  event.preventDefault();
                  onCloseFocus();
                }
              : undefined
          }
          className={cn(
            "fixed top-[calc(50%-4rem)] left-1/2 z-50 flex max-h-[calc(100dvh-10rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col overflow-y-auto rounded-xl border border-border bg-card p-5 text-card-foreground shadow-xl sm:p-6",
            WIDTH[width],
          )}
        >
          <div className="flex items-start justify-between gap-4">
            <div className="min-w-0">
              <Dialog.Title className="text-xl font-bold text-primary">{title}</Dialog.Title>
              <Dialog.Description className={cn("mt-1 text-sm text-muted-foreground", descriptionClassName)}>{description}</Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <Button variant="ghost" size="icon" aria-label="Close" className="-mt-2 -mr-2">
                <X aria-hidden="true" />
              </Button>
            </Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The button that opens a dialog, named as the dialog is ("Make a Payment" opens Make a Payment). */
function OpenerButton({ icon: Icon, label, ...props }: ButtonProps & { icon: IconComponent; label: ReactNode }) {
  return (
    <Button {...props}>
      <Icon aria-hidden="true" />
      {label}
    </Button>
  );
}

/** A 'Close' button at the foot of a ModalDialog. */
export function DialogCloseButton({ variant = "secondary", children = "Close", ...props }: ButtonProps) {
  return (
    <Dialog.Close asChild>
      <Button variant={variant} {...props}>
        {children}
      </Button>
    </Dialog.Close>
  );
}
