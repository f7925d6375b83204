import * as graduationCapIcon from "lucide-react/icons/graduation-cap";
import type { Leader } from "~/content/leaders";
import { inlineIcon } from "~/components/ui/inline-icon";

const GraduationCap = inlineIcon(graduationCapIcon);

export function LeaderCard({ leader }: { leader: Leader }) {
  const { image } = leader;
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-xl border border-border bg-card shadow-sm">
      <img
        src={image.src}
        alt={image.alt}
        width={image.width}
        height={image.height}
        loading="lazy"
        decoding="async"
        className="aspect-square w-full bg-navy-50 object-cover"
      />
      <div className="flex flex-1 flex-col p-6">
        <h3 className="text-lg font-semibold text-primary">{leader.name}</h3>
        <p className="text-sm font-semibold text-gold-700">{leader.title}</p>
        <p className="mt-3 text-sm text-slate-700">{leader.bio}</p>
        <div className="mt-4 border-t border-border pt-4">
          <h4 className="flex items-center gap-2 text-sm font-semibold text-foreground">
            <GraduationCap aria-hidden="true" className="size-4 text-primary" />
            Education
          </h4>
          <ul className="mt-2 space-y-1 text-sm text-muted-foreground">
            {leader.education.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      </div>
    </article>
  );
}
