import type { Feature } from '../../lib/feature.ts';
import { AuthHost } from './components/auth-host.tsx';

/** Sign-in has no screen of its own: it is a sheet any screen can open (lib/sign-in-request.ts). */
export const authFeature: Feature = {
  id: 'auth',
  routes: [],
  Host: AuthHost,
};
