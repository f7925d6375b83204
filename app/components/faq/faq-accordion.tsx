import * as chevronDownIcon from "lucide-react/icons/chevron-down";
import { Accordion } from "radix-ui";
import type { FaqCategory } from "~/content/faq";
import { inlineIcon } from "~/components/ui/inline-icon";

const ChevronDown = inlineIcon(chevronDownIcon);

/**
 * One FAQ category: Radix Accordion, type single and collapsible, so at most one answer is open.
 * Keyboard: Tab reaches each question, Enter/Space opens or closes it, Up/Down/Home/End move between
 * questions. Questions are <h3> buttons under the category's <h2>.
 */
export function FaqAccordion({ category }: { category: FaqCategory }) {
  return (
    <Accordion.Root type="single" collapsible className="divide-y divide-border rounded-xl border border-border bg-card shadow-sm">
      {category.items.map((item, index) => (
        <Accordion.Item key={item.question} value={`${category.id}-${index}`} className="group/item">
          <Accordion.Header className="m-0">
            <Accordion.Trigger className="flex w-full items-center justify-between gap-4 rounded-xl px-5 py-4 text-left font-semibold text-primary hover:bg-navy-50 focus-visible:outline-3 focus-visible:-outline-offset-3 sm:px-6">
              <span>{item.question}</span>
              <ChevronDown
                aria-hidden="true"
                className="size-5 shrink-0 text-muted-foreground transition-transform duration-200 group-data-[state=open]/item:rotate-180 motion-reduce:transition-none"
              />
            </Accordion.Trigger>
          </Accordion.Header>
          <Accordion.Content className="px-5 pb-5 text-slate-700 sm:px-6">
            <div className="space-y-3">
              {item.answer.map((paragraph) => (
                <p key={paragraph.slice(0, 32)}>{paragraph}</p>
              ))}
            </div>
          </Accordion.Content>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  );
}
