import { Component, type ErrorInfo, type ReactNode } from 'react';

/** What the boundary says of the part it guards, in its error box and on the console. */
export interface PartIdentity {
  type: string;
  state?: string;
}

/**
 * Keeps one message part's render error to that part: it shows a readable error in the part's
 * place and reports it to the console with the part's type and state, and the rest of the chat
 * stays on screen.
 */
export class PartBoundary extends Component<{ part: PartIdentity; children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};

  static getDerivedStateFromError(error: Error): { error: Error } {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    const { type, state } = this.props.part;
    console.error(
      `Cadre chat: a message part failed to render (type ${type}, state ${state ?? 'none'}): ${error.message}`,
      info.componentStack,
    );
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    const { type, state } = this.props.part;
    return (
      <div className="tool failed" data-testid="part-error">
        This part could not be shown ({type}
        {state ? `, ${state}` : ''}): {error.message}
      </div>
    );
  }
}
