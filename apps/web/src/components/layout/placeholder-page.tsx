import { ConstructionIcon } from 'lucide-react';
import { PageHeader } from './page-header';

/** Stand-in for a screen that is still being built; each feature replaces its page file. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed p-10 text-center text-muted-foreground">
        <ConstructionIcon className="size-8" aria-hidden="true" />
        <p>This screen is on its way.</p>
      </div>
    </>
  );
}
