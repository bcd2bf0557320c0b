import { Component, type ReactNode } from 'react';
import { ScreenCrash } from './boot-screen.tsx';

interface State {
  hasError: boolean;
}

/**
 * The last line of defence for a screen that throws while rendering or whose code fails to load
 * (often because a new deploy replaced the chunk): the rest of the app keeps working.
 */
export class ScreenErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { hasError: false };

  static getDerivedStateFromError(): State {
    return { hasError: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error(error);
  }

  override render() {
    return this.state.hasError ? <ScreenCrash /> : this.props.children;
  }
}
