import { lazy, Suspense, type ComponentProps } from 'react';
import { LoadingView } from '../state-view.tsx';

// The stepper brings wagmi, viem and the contracts' ABIs: it loads when a screen first shows it,
// never with the screen's own code (and never with the home route).
const Stepper = lazy(() => import('./payment-stepper.tsx'));

export function PaymentStepper(props: ComponentProps<typeof Stepper>) {
  return (
    <Suspense fallback={<LoadingView />}>
      <Stepper {...props} />
    </Suspense>
  );
}
