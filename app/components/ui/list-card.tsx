import type { ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

/**
 * A card listing things under its title: the list (`children`, named by the title through
 * aria-labelledby={titleId}), or, when there is nothing to list, one muted line saying so.
 */
export function ListCard({ titleId, title, empty, emptyText, children }: { titleId: string; title: ReactNode; empty: boolean; emptyText: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle id={titleId}>{title}</CardTitle>
      </CardHeader>
      <CardContent>{empty ? <p className="text-muted-foreground">{emptyText}</p> : children}</CardContent>
    </Card>
  );
}
