import { Check, StickyNote } from "lucide-react";
import * as checkIcon from "lucide-react/icons/check";
import * as stickyNoteIcon from "lucide-react/icons/sticky-note";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { inlineIcon } from "~/components/ui/inline-icon";

/** The inline icons draw exactly Lucide's shapes, keep its class names and stay hidden from screen readers. */
const inner = (html: string) => /<svg[^>]*>(.*)<\/svg>/s.exec(html)![1]!.replace(/\/>/g, "></path>");

describe("inlineIcon", () => {
  it("draws the same paths as Lucide's component, with its classes and aria-hidden", () => {
    for (const [module, Lucide, name] of [
      [checkIcon, Check, "check"],
      [stickyNoteIcon, StickyNote, "sticky-note"],
    ] as const) {
      const Icon = inlineIcon(module);
      const ours = renderToStaticMarkup(<Icon className="size-4" />);
      const theirs = renderToStaticMarkup(<Lucide aria-hidden="true" className="size-4" />);
      expect(inner(ours)).toBe(inner(theirs));
      expect(ours).toContain(`class="icon-inline lucide lucide-${name} size-4"`);
      expect(ours).toContain('aria-hidden="true"');
      expect(ours).toContain('viewBox="0 0 24 24"');
    }
  });

  it("refuses a module that is not a Lucide icon", () => {
    expect(() => inlineIcon({ default: () => null })).toThrow(/not a lucide-react icon module/);
  });
});
