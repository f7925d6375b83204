import type { ComponentType, SVGProps } from "react";

/**
 * A Lucide icon drawn from its path data as one static string, its drawing attributes (stroke, fill,
 * default size) coming from the `.icon-inline` class (app.css) rather than repeated on each element.
 * On a page with many repeated icons (the admin list draws sixty) Lucide's components and their ten
 * attributes each were a tenth of the server's rendering time. Same look and the same
 * `lucide lucide-{name}` classes as Lucide's own; hidden from assistive technology.
 *
 * Takes the icon's module (`import * as check from "lucide-react/icons/check"`), whose `__iconData` holds
 * the path data Lucide itself draws from.
 */

type IconNode = [tag: string, attributes: Record<string, string>][];
type IconModule = { __iconData?: { name: string; node: IconNode } };

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

export function inlineIcon(module: unknown) {
  const data = (module as IconModule).__iconData;
  if (!data?.name || !Array.isArray(data.node)) throw new Error("inlineIcon: not a lucide-react icon module");
  const inner = {
    __html: data.node
      .map(([tag, attributes]) => {
        const attrs = Object.entries(attributes)
          .filter(([name]) => name !== "key")
          .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
          .join("");
        return `<${tag}${attrs}></${tag}>`;
      })
      .join(""),
  };
  const base = `icon-inline lucide lucide-${data.name}`;
  function InlineIcon({ className, ...rest }: Omit<SVGProps<SVGSVGElement>, "children" | "dangerouslySetInnerHTML">) {
    return (
      <svg
        viewBox="0 0 24 24"
        className={className ? `${base} ${className}` : base}
        aria-hidden="true"
        {...rest}
        dangerouslySetInnerHTML={inner}
      />
    );
  }
  InlineIcon.displayName = `InlineIcon(${data.name})`;
  return InlineIcon;
}

/** What a component takes as an icon: one of these inline icons or a Lucide component. */
export type IconComponent = ComponentType<{ className?: string; "aria-hidden"?: boolean | "true" | "false" }>;

/** A component's icons in one declaration: `const [Menu, X] = inlineIcons(menuIcon, xIcon)`, in the order given. */
export function inlineIcons<const Modules extends readonly unknown[]>(...modules: Modules): { [K in keyof Modules]: ReturnType<typeof inlineIcon> } {
  return modules.map(inlineIcon) as { [K in keyof Modules]: ReturnType<typeof inlineIcon> };
}
