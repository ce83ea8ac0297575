import { Text } from 'ink';
import { Component, type ReactNode } from 'react';
import { sanitizeLabel } from '../services/terminal/sanitize';

interface Props {
  /** What the panel is, for the message. */
  name: string;
  children: ReactNode;
}

interface State {
  error?: string;
}

/**
 * A panel that fails to render shows one line saying so instead of taking the whole screen (and
 * the user's conversation) down with it. The next change to what it shows tries again.
 */
export class PanelBoundary extends Component<Props, State> {
  override state: State = {};

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error.message : String(error) };
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.error && previous.children !== this.props.children) this.setState({ error: undefined });
  }

  override render(): ReactNode {
    if (this.state.error) {
      return (
        <Text color="red" wrap="truncate-end">
          {`${this.props.name} could not be drawn: ${sanitizeLabel(this.state.error)}`}
        </Text>
      );
    }
    return this.props.children;
  }
}
