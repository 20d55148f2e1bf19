import { Component, type ErrorInfo, type ReactNode, useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';

/**
 * What a user sees when a screen cannot render: most often its code cannot be downloaded because the console
 * was updated while the page was open (the old chunk is gone), so reloading is the way out. The data
 * router's default page said "Hey developer" to everyone; this one says what happened and offers the way
 * back, with the error itself under Details for whoever is asked to help.
 */
function ScreenError({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : String(error);
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus goes to the heading, as after any navigation (lib/route-focus.ts): a screen reader says it.
  useEffect(() => heading.current?.focus(), []);
  return (
    <main className="flex min-h-svh flex-col items-center justify-center gap-4 bg-background p-6 text-center text-foreground">
      <h1 ref={heading} tabIndex={-1} className="text-2xl font-semibold outline-none">
        Something went wrong
      </h1>
      <p className="max-w-md text-muted-foreground">
        This screen could not be shown. If the console was just updated, reloading the page loads the new
        version.
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        <Button onClick={() => window.location.reload()}>Reload page</Button>
        <Button variant="outline" asChild>
          <a href="/">Go to Dashboard</a>
        </Button>
      </div>
      <details className="max-w-xl text-left text-sm text-muted-foreground">
        <summary className="cursor-pointer">Details</summary>
        <p className="mt-2 break-words font-mono text-xs">{message}</p>
      </details>
    </main>
  );
}

interface Props {
  /** The router's location object: a new one (any navigation, Back included) clears the error. */
  location: unknown;
  children: ReactNode;
}

interface State {
  location: unknown;
  error: unknown;
  failed: boolean;
}

/** The routes' error boundary: the error page until the location changes (Back, a link, a reload). */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { location: this.props.location, error: undefined, failed: false };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.location === state.location
      ? null
      : { location: props.location, error: undefined, failed: false };
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo) {
    console.error('A screen failed to render', error);
  }

  override render() {
    return this.state.failed ? <ScreenError error={this.state.error} /> : this.props.children;
  }
}
