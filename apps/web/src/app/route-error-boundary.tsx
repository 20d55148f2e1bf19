import { Component, type ErrorInfo, type ReactNode } from 'react';

const lightgrey = 'rgba(200,200,200, 0.5)';

/**
 * What React Router's data router showed for an error thrown while rendering a screen (its default error
 * element), kept word for word now that the console uses its declarative router (app/router.tsx), which has
 * no error boundary of its own: without one, a failed render or a screen chunk that cannot load would leave
 * a blank page. The developer hint is what the package's build printed (react-router resolves to its
 * development build).
 */
function DefaultError({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : JSON.stringify(error);
  const stack = error instanceof Error ? error.stack : null;
  const code = { padding: '2px 4px', backgroundColor: lightgrey };
  console.error('Error handled by React Router default ErrorBoundary:', error);
  return (
    <>
      <h2>Unexpected Application Error!</h2>
      <h3 style={{ fontStyle: 'italic' }}>{message}</h3>
      {stack ? <pre style={{ padding: '0.5rem', backgroundColor: lightgrey }}>{stack}</pre> : null}
      <p>{'\u{1F4BF} Hey developer \u{1F44B}'}</p>
      <p>
        You can provide a way better UX than this when your app throws errors by providing your own{' '}
        <code style={code}>ErrorBoundary</code> or <code style={code}>errorElement</code> prop on your route.
      </p>
    </>
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

/** The data router's root error boundary, as it behaved: the error page until the location changes. */
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
    console.error('React Router caught the following error during render', error);
  }

  override render() {
    return this.state.failed ? <DefaultError error={this.state.error} /> : this.props.children;
  }
}
