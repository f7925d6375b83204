import { cn } from "~/utils/cn";

/** The brand mark: a gold shield with a navy key line. Decorative (the link around it is named). */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={cn("size-9 shrink-0", className)}>
      <path d="M16 2 4 6.5v8.3c0 7.4 5.1 13.2 12 15.2 6.9-2 12-7.8 12-15.2V6.5L16 2Z" fill="#e6b949" />
      <path d="M16 5.2 7 8.6v6.2c0 5.7 3.8 10.3 9 12 5.2-1.7 9-6.3 9-12V8.6l-9-3.4Z" fill="#0f2a4f" />
      <path
        d="M12 11.5h5.2c2.3 0 3.8 1.3 3.8 3.3s-1.5 3.4-3.8 3.4h-2.4v4.3H12V11.5Zm2.8 2.3v2.2h2.1c.8 0 1.3-.4 1.3-1.1s-.5-1.1-1.3-1.1h-2.1Z"
        fill="#e6b949"
      />
    </svg>
  );
}
